import { asTool } from "../tools/tool-input.js";
import type { Tool, ToolRunResult } from "../tools/tool-types.js";
import { thrownFrom, validateArguments } from "../validation/arguments.js";
import type { ToolContextInit } from "./context.js";
import { runTool } from "./run-tool.js";

export type { Repair, RepairKind } from "../repair/repair.js";
export type { ToolRunResult } from "../tools/tool-types.js";
export type { ArgumentCheck } from "../validation/arguments.js";
export { validateArguments } from "../validation/arguments.js";
export type { ToolContextInit } from "./context.js";
export type { RunToolOptions } from "./run-tool.js";
export { DEFAULT_TIMEOUT_MS, runTool } from "./run-tool.js";

/**
 * Calls a tool exactly as the agent loop does, minus approvals and retries: validates
 * (and safely repairs) `args`, injects the context, applies the time limit, and
 * serializes the result. Throws the typed error of a failed call (each has an `outcome`).
 * Works for tools made by `tool()` and for any object following the `Tool` protocol.
 *
 * @example
 * ```ts
 * const { content } = await invoke(weather, { city: "Paris" }, { deps: { api } });
 * ```
 */
export async function invoke(tool: Tool, args: unknown, ctx?: ToolContextInit): Promise<ToolRunResult> {
  const normalised = asTool(tool);
  const check = validateArguments(normalised, args);
  if (!check.ok) throw thrownFrom(check.error, invoke);
  return runTool(normalised, check.args, ctx);
}
