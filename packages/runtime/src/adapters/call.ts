import { ToolDefinitionError, ToolTimeoutError } from "../errors.js";
import type { ToolContextInit } from "../invoke/context.js";
import { buildContext, NEVER_ABORTED, runTool } from "../invoke/run-tool.js";
import { timeoutText } from "../runner/outcome.js";
import { toTool } from "../tools/tool-input.js";
import type { Tool, ToolInput, ToolRunResult } from "../tools/tool-types.js";
import { thrownFrom, validateArguments } from "../validation/arguments.js";

// What every adapter shares: a toolwright tool called from another runtime's loop takes the
// same two steps as in toolwright's own (validate and repair, then run under the time limit),
// and asks for approval on the same terms.

/** What the adapters take besides the tools: the defaults toolwright's Agent would give each call. */
export interface AdapterOptions<Deps = unknown> {
  /**
   * `ctx.deps` of every call. Without it, a call gets the other runtime's own per-run
   * context where it has one (the AI SDK's `experimental_context`, the Agents SDK's run
   * context, LangChain's `configurable`).
   */
  readonly deps?: Deps;
  /** Time limit of a call whose tool sets none, in milliseconds (default 60,000). */
  readonly timeoutMs?: number;
  /** Results longer than this many characters are cut, for tools that set no limit (default 100,000). */
  readonly maxResultChars?: number;
}

/** What a runtime knows of one call: its id, its signal, its own context. */
export interface ForeignCall {
  readonly callId?: string | undefined;
  readonly signal?: AbortSignal | undefined;
  /** The runtime's own per-run context, used as `ctx.deps` when the options give none. */
  readonly context?: unknown;
}

/** The tools of a list, each once by name: a name twice would leave one tool unreachable. */
export function toolList(inputs: readonly ToolInput[]): Tool[] {
  const seen = new Set<string>();
  return inputs.map((input) => {
    const tool = toTool(input);
    if (seen.has(tool.name)) {
      throw new ToolDefinitionError(
        `two tools are named "${tool.name}": the model could only ever call one of them. Rename one with tool(fn, { name }).`,
        tool.name,
      );
    }
    seen.add(tool.name);
    return tool;
  });
}

function contextInit(tool: Tool, call: ForeignCall, options: AdapterOptions): ToolContextInit {
  return {
    toolName: tool.name,
    deps: options.deps !== undefined ? options.deps : call.context,
    ...(call.callId === undefined ? {} : { callId: call.callId }),
    ...(call.signal === undefined ? {} : { signal: call.signal }),
  };
}

/**
 * One call of a toolwright tool from another runtime, as toolwright's loop makes it: the
 * arguments validated, safely repaired, deep-frozen and dated, then the tool run with its
 * context under its time limit, its result checked and serialized. Throws the typed error
 * of a failed call; its message is what the model should read.
 */
export async function callTool(
  tool: Tool,
  args: unknown,
  call: ForeignCall,
  options: AdapterOptions,
): Promise<ToolRunResult> {
  const check = validateArguments(tool, args);
  if (!check.ok) throw thrownFrom(check.error, callTool);
  return runTool(tool, check.args, contextInit(tool, call, options), {
    timeoutMs: options.timeoutMs,
    maxResultChars: tool.maxResultChars ?? options.maxResultChars,
  });
}

/** What the model reads of a failed call, worded as toolwright's loop words it. */
export function failureText(tool: Tool, error: unknown): string {
  if (error instanceof ToolTimeoutError) return timeoutText(tool.name, error.timeoutMs);
  return error instanceof Error ? error.message : String(error);
}

/** Decides per call whether a person must approve it. */
export type ApprovalCheck = (args: unknown, call: ForeignCall) => Promise<boolean>;

/**
 * The tool's approval rule as a per-call check, or `undefined` when it never needs one.
 * As in toolwright's loop, arguments that fail validation need no approval (the call fails
 * without running, and the model reads why), the predicate sees the validated arguments,
 * and a predicate that throws asks a person.
 */
export function approvalCheck(tool: Tool, options: AdapterOptions): ApprovalCheck | undefined {
  const gate = tool.needsApproval ?? tool.flags.needsApproval;
  if (gate === undefined || gate === false) return undefined;
  return async (args, call) => {
    const check = validateArguments(tool, args);
    if (!check.ok) return false;
    if (typeof gate !== "function") return gate === true;
    const ctx = buildContext(tool, contextInit(tool, call, options), call.signal ?? NEVER_ABORTED);
    try {
      return (await gate(ctx, check.args)) === true;
    } catch {
      return true;
    }
  };
}
