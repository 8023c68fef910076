import { ToolDefinitionError } from "../errors.js";
import { isRejectedSpec } from "./rejected-spec.js";

/** How to make the build write specs, for every error that finds one missing. */
export const TRANSFORMER_FIX =
  `Add { "transform": "@toolwright/compiler/transform" } to compilerOptions.plugins in tsconfig.json and build with tspc ` +
  `(or 'ts-patch install'), use the esbuild/Vite plugin, or run 'toolwright gen' for tsx, SWC and TypeScript 7.`;

/** Where the function `depth` frames above the caller of this one was called from, as a stack line shows it. */
export function callSiteOf(depth: number): string {
  // Frames: this function, its caller, ..., then the call site.
  return new Error().stack?.split("\n")[depth + 2]?.trim().replace(/^at /, "") ?? "an unknown place";
}

/**
 * The error for a tool site with no usable spec. When the compiler saw the site but the
 * build rejected it (`given` is its {@link RejectedSpec} marker), it says so, with the
 * build's errors and where they are. Otherwise the transformer never saw the site: it
 * names the tool, where it was defined (the caller of `tool()`), and the ways to make
 * the build add the spec.
 */
export function missingSpecError(toolName: string, given?: unknown): ToolDefinitionError {
  if (isRejectedSpec(given)) {
    return new ToolDefinitionError(
      `tool "${toolName}" was rejected by the build, which reported: ${given.errors.join(" ")} ` +
        `The build still emitted this file (tsc does unless "noEmitOnError" is set), so it has no spec. ` +
        `Fix: correct the error above and rebuild.`,
      toolName,
    );
  }
  // Frames above this one: tool(), then the user's call site.
  return new ToolDefinitionError(
    `tool "${toolName}" (called ${callSiteOf(2)}) has no compiled spec: the toolwright transformer did not run on this file. ${TRANSFORMER_FIX}`,
    toolName,
  );
}
