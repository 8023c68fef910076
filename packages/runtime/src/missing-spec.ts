import { ToolDefinitionError } from "./errors.js";

/**
 * The error for a tool site the transformer never saw. It names the tool, where it was
 * defined (the caller of `tool()`), and the ways to make the build add the spec.
 */
export function missingSpecError(toolName: string): ToolDefinitionError {
  // Frames: this function, tool(), then the user's call site.
  const where = new Error().stack?.split("\n")[3]?.trim().replace(/^at /, "") ?? "an unknown place";
  return new ToolDefinitionError(
    `tool "${toolName}" (called ${where}) has no compiled spec: the toolwright transformer did not run on this file. ` +
      `Add { "transform": "@toolwright/compiler/transform" } to compilerOptions.plugins in tsconfig.json and build with tspc ` +
      `(or 'ts-patch install'), use the esbuild/Vite plugin, or run 'toolwright gen' for tsx, SWC and TypeScript 7.`,
    toolName,
  );
}
