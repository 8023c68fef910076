import { Retry, ToolArgumentError, ToolError, ToolTimeoutError } from "../errors.js";
import type { ToolContext, ToolProgress } from "../invoke/context.js";
import { capResult, DEFAULT_MAX_RESULT_CHARS, serializeResult } from "../invoke/result.js";
import { readsContext, runTool } from "../invoke/run-tool.js";
import type { MediaPart, OutcomeKind } from "../model/messages.js";
import type { Tool, ToolArgs } from "../tools/tool-types.js";
import { validateArguments } from "../validation/arguments.js";
import type { RunEnv } from "./env.js";
import type { ToolCallResult } from "./hooks.js";
import { type CallFacts, GENERIC_FAILURE, rejectedText, type SettledCall, settle, timeoutText } from "./outcome.js";
import { egressRefusal } from "./policy-gate.js";
import { backoffMs, sleep } from "./retry.js";
import { makeContext } from "./tool-context.js";
import type { LogLine } from "./types.js";

/** How a call that was allowed to run ended. */
export type Execution =
  | { readonly kind: "settled"; readonly settled: SettledCall }
  /** The tool threw unexpectedly under `onToolException: "fail"`, or a hook threw. */
  | {
      readonly kind: "failed";
      readonly source: "tool" | "hook";
      readonly toolName: string;
      readonly callId: string;
      readonly error: unknown;
    }
  /** The run's signal aborted while the call was in flight. */
  | { readonly kind: "aborted" };

/** The calls' fixed facts: who, where, under which signal, and what its record keeps from before it ran. */
export interface CallSite {
  readonly callId: string;
  readonly step: number;
  readonly signal: AbortSignal;
  readonly facts: CallFacts;
  /** Where the call's `ctx.progress` reports go (a stream's `tool-progress` events); nowhere when absent. */
  readonly progress?: ToolProgress;
}

interface Ran {
  readonly outcome: OutcomeKind;
  readonly content: string;
  readonly media?: readonly MediaPart[];
  readonly detail?: string;
  readonly attempts: number;
}

/** Runs one approved, validated call through the tool hooks, the tool (with engine retries) and the result hooks. */
export async function executeCall(env: RunEnv, site: CallSite, tool: Tool, proposed: ToolArgs): Promise<Execution> {
  const startedAt = Date.now();
  const logs: LogLine[] = [];
  const { beforeTool, afterTool } = env.config;
  // Hooks see the first attempt's context; made only when there is a hook, to keep the plain path lean.
  const ctx = beforeTool.length || afterTool.length ? contextFor(env, site, tool, 1, logs) : undefined;
  let args = proposed;
  let ran: Ran | undefined;
  let stage: "hook" | "tool" = "hook";
  try {
    if (ctx && beforeTool.length) {
      const before = await runBefore(env, tool, args, ctx);
      if ("ran" in before) ran = before.ran;
      else args = before.args;
    }
    stage = "tool";
    ran ??= await attempt(env, site, tool, args, logs);
    stage = "hook";
    if (ctx && afterTool.length) {
      let result: ToolCallResult = { outcome: ran.outcome, content: ran.content };
      for (const hook of afterTool) result = (await hook({ tool, args, ctx, result })) ?? result;
      ran = { ...ran, ...result };
    }
  } catch (error) {
    if (site.signal.aborted) return { kind: "aborted" };
    return { kind: "failed", source: stage, toolName: tool.name, callId: site.callId, error };
  }
  return { kind: "settled", settled: done(site, tool, ran, logs, startedAt) };
}

/**
 * The `beforeTool` chain: the first hook that decides wins; `replace_args` are validated
 * again, and their URL checked against the egress allowlist again.
 */
async function runBefore(
  env: RunEnv,
  tool: Tool,
  proposed: ToolArgs,
  ctx: ToolContext<never>,
): Promise<{ readonly ran: Ran } | { readonly args: ToolArgs }> {
  let args = proposed;
  for (const hook of env.config.beforeTool) {
    const decision = await hook({ tool, args, ctx });
    if (!decision) continue;
    if (decision.action === "block")
      return { ran: { outcome: "rejected", content: rejectedText(decision.message), attempts: 0 } };
    if (decision.action === "answer") {
      const { content } = capResult(serializeResult(decision.value), tool.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS);
      return { ran: { outcome: "ok", content, attempts: 0 } };
    }
    const checked = validateArguments(tool, decision.args);
    if (!checked.ok) return { ran: { outcome: "invalid_arguments", content: checked.error.message, attempts: 0 } };
    const refused = egressRefusal(env, tool, checked.args);
    if (refused) return { ran: { outcome: "rejected", content: rejectedText(refused), attempts: 0 } };
    args = checked.args;
  }
  return { args };
}

function contextFor(env: RunEnv, site: CallSite, tool: Tool, attemptNo: number, logs: LogLine[]): ToolContext<never> {
  return makeContext(env, site.callId, tool.name, site.step, attemptNo, site.signal, logs, site.progress);
}

function done(site: CallSite, tool: Tool, ran: Ran, logs: readonly LogLine[], startedAt: number): SettledCall {
  const { repairs, approval } = site.facts;
  return settle(site.callId, tool.name, ran.outcome, ran.content, {
    repairs,
    approval,
    attempts: ran.attempts,
    detail: ran.detail,
    media: ran.media,
    logs,
    startedAt,
    durationMs: Date.now() - startedAt,
  });
}

/** A failure worth another attempt of a read-only or idempotent tool: a retryable `ToolError`, or a timeout. */
function transient(error: unknown): boolean {
  return (error instanceof ToolError && error.retryable) || error instanceof ToolTimeoutError;
}

/**
 * Runs the tool, retrying a retryable `ToolError` or a timeout of a `readOnly`/`idempotent`
 * tool with backoff. Throws only for an unexpected exception under the `"fail"` policy (or an abort).
 */
async function attempt(env: RunEnv, site: CallSite, tool: Tool, args: ToolArgs, logs: LogLine[]): Promise<Ran> {
  const { config } = env;
  const policy = config.toolRetry;
  const mayRetry = tool.flags.readOnly === true || tool.flags.idempotent === true;
  const timeoutMs = tool.timeoutMs ?? config.toolTimeoutMs;
  // A tool that never reads its context gets none built: runTool only needs the run's signal.
  const reads = readsContext(tool);
  for (let n = 1; ; n++) {
    const ctx = reads ? contextFor(env, site, tool, n, logs) : { signal: site.signal };
    try {
      const out = await runTool(tool, args, ctx, { timeoutMs, maxResultChars: tool.maxResultChars });
      return out.media
        ? { outcome: "ok", content: out.content, media: out.media, attempts: n }
        : { outcome: "ok", content: out.content, attempts: n };
    } catch (error) {
      if (site.signal.aborted) throw error;
      if (mayRetry && transient(error) && n < policy.maxAttempts) {
        await sleep(backoffMs(policy, n), site.signal);
        continue;
      }
      return failure(env, tool, error, n);
    }
  }
}

function failure(env: RunEnv, tool: Tool, error: unknown, attempts: number): Ran {
  if (error instanceof ToolError) return { outcome: "tool_error", content: error.message, attempts };
  if (error instanceof ToolTimeoutError) {
    return { outcome: "timeout", content: timeoutText(tool.name, error.timeoutMs), attempts };
  }
  if (error instanceof Retry) return retryOutcome(env, tool, error, attempts);
  // A Standard Schema tool validates inside execute; its verdict is the model's to fix.
  if (error instanceof ToolArgumentError) return { outcome: "invalid_arguments", content: error.message, attempts };
  const text = error instanceof Error ? error.message : String(error);
  switch (env.config.onToolException) {
    case "fail":
      throw error;
    case "return_generic":
      return { outcome: "tool_error", content: GENERIC_FAILURE, detail: text, attempts };
    case "return_to_model":
      return { outcome: "tool_error", content: text, attempts };
  }
}

/** A `Retry(hint)`: the model reads the hint while the tool has retries left, then a final error. */
function retryOutcome(env: RunEnv, tool: Tool, error: Retry, attempts: number): Ran {
  const used = env.snapshot.retriesUsed[tool.name] ?? 0;
  const allowed = tool.retries ?? 2;
  if (used >= allowed) {
    return {
      outcome: "tool_error",
      content: `${tool.name} asked for ${allowed} retries already and gives up: ${error.hint}`,
      attempts,
    };
  }
  env.snapshot.retriesUsed[tool.name] = used + 1;
  return { outcome: "retry", content: error.hint, attempts };
}
