import { randomUUID } from "node:crypto";
import {
  Retry,
  ToolArgumentError,
  ToolError,
  ToolExceptionError,
  ToolShapeError,
  ToolTimeoutError,
} from "../errors.js";
import { unavailableMemory } from "../memory/memory.js";
import type { Tool, ToolArgs, ToolRunResult } from "../tools/tool-types.js";
import { checkerOf } from "../validation/arguments.js";
import { datesAsWritten } from "../validation/dates.js";
import { shapeFeedback } from "../validation/feedback.js";
import { generatedCheck } from "../validation/generated.js";
import { issuesFromAjv } from "../validation/issues.js";
import type { ToolContext, ToolContextInit, ToolLogger, Usage } from "./context.js";
import { mediaResult } from "./media.js";
import { capResult, DEFAULT_MAX_RESULT_CHARS, serializeResult } from "./result.js";
import { toolFetch } from "./tool-fetch.js";

/** A tool's time limit when neither the tool nor the agent sets one. */
export const DEFAULT_TIMEOUT_MS = 60_000;

/** The largest delay a Node timer can hold; longer limits (and `Infinity`) mean "no limit". */
const MAX_TIMER_MS = 2_147_483_647;

/** The signal of runs given none: nothing ever aborts it, so nobody needs to listen to it. */
export const NEVER_ABORTED: AbortSignal = new AbortController().signal;

/**
 * `execute` functions that never read their context (a compiled function with no
 * `ToolContext` parameter): their calls need no signal of their own, so none is made.
 */
const contextFree = new WeakSet<Tool["execute"]>();

/** Marks a tool's `execute` as never reading its context (see `functionTool`). */
export function ignoresContext(execute: Tool["execute"]): void {
  contextFree.add(execute);
}

/** Whether a tool's `execute` may read its context (false only for one marked by {@link ignoresContext}). */
export function readsContext(tool: Tool): boolean {
  return !contextFree.has(tool.execute);
}

/** Options of {@link runTool}: the agent-level defaults a tool's own settings win over. */
export interface RunToolOptions {
  /** Used when the tool has no `timeoutMs` of its own (default 60,000). */
  readonly timeoutMs?: number;
  /** Per call: wins over the tool's `maxResultChars` (default 100,000). */
  readonly maxResultChars?: number;
}

const silent: ToolLogger = Object.freeze({ debug() {}, info() {}, warn() {}, error() {} });

/** `ctx.progress` where nobody listens. */
export const ignoreProgress = (): void => {};

const noUsage: Readonly<Usage> = Object.freeze({
  inputTokens: 0,
  outputTokens: 0,
  cachedInputTokens: 0,
  requests: 0,
  costUsd: 0,
});

const OUTSIDE_RUN = unavailableMemory(
  "ctx.memory is only there inside an agent run; to call this tool on its own, pass { memory } in its context.",
);

/**
 * The full context of one call of `tool` from what the caller gave, the rest defaulted as
 * for a call outside an agent run (what `runTool` gives `execute`, and what an approval
 * predicate reads when another runtime asks it).
 */
export function buildContext(tool: Tool, init: ToolContextInit, signal: AbortSignal): ToolContext<never> {
  return Object.freeze({
    deps: init.deps as never,
    runId: init.runId ?? `run_${randomUUID()}`,
    callId: init.callId ?? `call_${randomUUID()}`,
    toolName: init.toolName ?? tool.name,
    step: init.step ?? 1,
    attempt: init.attempt ?? 1,
    signal,
    usage: init.usage ?? noUsage,
    // Outside an agent nobody keeps the lines; the loop passes a logger that records them.
    log: init.log ?? silent,
    progress: init.progress ?? ignoreProgress,
    // Outside an agent there is no allowlist: requests are refused unless the caller passes a fetch.
    fetch: init.fetch ?? toolFetch(undefined, signal),
    memory: init.memory ?? OUTSIDE_RUN,
  });
}

/**
 * Runs `execute` under a time limit: on expiry the call's signal aborts and the promise
 * rejects with a {@link ToolTimeoutError}, even when the tool ignores its signal (its work
 * is then abandoned, not stopped). A parent signal that aborts cancels the call with its reason.
 */
async function withTimeout(
  tool: Tool,
  timeoutMs: number,
  parent: AbortSignal | undefined,
  execute: (signal: AbortSignal | undefined) => unknown,
): Promise<unknown> {
  // A tool that never sees its context cannot see a signal: the limit only needs to stop waiting.
  const controller = readsContext(tool) ? new AbortController() : undefined;
  // Nobody listens to a signal that can never abort.
  const watched = parent === NEVER_ABORTED ? undefined : parent;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onParentAbort: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    if (timeoutMs <= MAX_TIMER_MS) {
      timer = setTimeout(() => {
        const error = new ToolTimeoutError(tool.name, timeoutMs);
        controller?.abort(error);
        reject(error);
      }, timeoutMs);
    }
    if (watched) {
      onParentAbort = () => {
        controller?.abort(watched.reason);
        reject(watched.reason);
      };
      if (watched.aborted) onParentAbort();
      else watched.addEventListener("abort", onParentAbort, { once: true });
    }
  });
  try {
    if (watched?.aborted) return await stopped;
    return await Promise.race([Promise.resolve().then(() => execute(controller?.signal)), stopped]);
  } finally {
    clearTimeout(timer);
    if (onParentAbort) watched?.removeEventListener("abort", onParentAbort);
  }
}

function checkShape(tool: Tool, value: unknown, content: string): void {
  if (!tool.outputSchema) return;
  // Check what the model will read (a Date as its ISO string, a Map as an object), not the JS value.
  let written: unknown = value;
  if (typeof value !== "string" && content !== "") {
    try {
      written = JSON.parse(content);
    } catch {
      // The "[unserializable result: ...]" note: check that text, which is what the model reads.
      written = content;
    }
  }
  if (generatedCheck(tool, "outputSchema")?.(written)) return;
  const errors = checkerOf(tool.name, tool.outputSchema, "outputSchema")(written);
  if (errors) {
    const { issues, complete } = issuesFromAjv(errors, tool.outputSchema);
    throw new ToolShapeError(shapeFeedback(tool.name, issues, complete), tool.name, issues);
  }
}

/**
 * Runs a tool on arguments that are already validated (see `validateArguments`): builds
 * the full {@link ToolContext}, applies the time limit, checks the return value against
 * the tool's `outputSchema`, then serializes and caps it.
 *
 * Throws {@link ToolError} and {@link Retry} as the tool threw them; {@link ToolTimeoutError}
 * on expiry; {@link ToolShapeError} for a wrong return value; any other thrown value wrapped
 * in a {@link ToolExceptionError}; a parent signal's abort reason when the run is cancelled.
 */
export async function runTool(
  tool: Tool,
  args: ToolArgs,
  ctx: ToolContextInit = {},
  options: RunToolOptions = {},
): Promise<ToolRunResult> {
  const timeoutMs = tool.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const parent = ctx.signal;
  let value: unknown;
  try {
    value = await withTimeout(tool, timeoutMs, parent, (signal) =>
      // A context-free execute is given none: it would never read it.
      tool.execute(args, signal ? buildContext(tool, ctx, signal) : (undefined as never)),
    );
  } catch (error) {
    if (error instanceof ToolError || error instanceof Retry || error instanceof ToolTimeoutError) throw error;
    // A Standard Schema tool validates with its own library inside execute.
    if (error instanceof ToolArgumentError && error.toolName === tool.name) throw error;
    if (parent?.aborted && error === parent.reason) throw error;
    throw new ToolExceptionError(tool.name, error);
  }
  const media = mediaResult(value);
  // A Date at a `format: "date"` node is written as its day, as the schema announces.
  const written = tool.outputSchema ? datesAsWritten(value, tool.outputSchema) : value;
  // Images and sounds go to the model as such where the provider takes them; the text names them.
  const content = media ? media.text : serializeResult(written);
  checkShape(tool, value, media ? serializeResult(written) : content);
  const capped = capResult(content, options.maxResultChars ?? tool.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS);
  return media ? { value, ...capped, media: media.media } : { value, ...capped };
}
