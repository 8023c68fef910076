import { ToolDefinitionError } from "../errors.js";
import type { SourceLocation } from "./spec.js";

/** The names every provider accepts. */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Returns `name` when every provider accepts it; throws a {@link ToolDefinitionError} otherwise. */
export function checkToolName(name: unknown, source?: SourceLocation): string {
  if (typeof name === "string" && TOOL_NAME.test(name)) return name;
  const where = source ? ` (defined at ${source.file}:${source.line})` : "";
  throw new ToolDefinitionError(
    `tool name ${JSON.stringify(name)}${where} is not valid: use 1 to 64 letters, digits, "_" or "-". Pass { name: "..." } to rename it.`,
    typeof name === "string" ? name : "<unnamed>",
  );
}
