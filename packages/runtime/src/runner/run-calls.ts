import type { ToolProgress } from "../invoke/context.js";
import { mapConcurrent } from "./concurrency.js";
import type { RunEnv } from "./env.js";
import { type Execution, executeCall } from "./execute-call.js";
import type { Preparation } from "./prepare-call.js";
import type { AgentStreamEvent } from "./run-result.js";
import type { PendingCall } from "./snapshot.js";

/**
 * Runs the runnable calls of a turn concurrently (at most `maxConcurrentTools` at once),
 * stores each result on its pending call, and yields a `tool-result` event as each call
 * finishes, and a `tool-progress` event for each report a running call makes, so a stream
 * shows them as they come. Returns every execution, in the order of `runnable`.
 */
export async function* runCalls(
  env: RunEnv,
  pending: readonly PendingCall[],
  preps: readonly Preparation[],
  runnable: readonly number[],
  step: number,
): AsyncGenerator<AgentStreamEvent, Execution[]> {
  const events: AgentStreamEvent[] = [];
  let wake: (() => void) | undefined;
  let running = true;
  // A report a tool makes after its call settled would arrive after the call's result: dropped.
  const settled = new Set<string>();
  const tell = (event: AgentStreamEvent) => {
    events.push(event);
    wake?.();
  };
  const all = launch(env, pending, preps, runnable, step, {
    settled(p) {
      settled.add(p.call.id);
      if (p.result) tell({ type: "tool-result", step, message: p.result.message, record: p.result.record });
    },
    progress: (callId, toolName) => (progress, total, message) => {
      if (settled.has(callId)) return;
      tell({
        type: "tool-progress",
        step,
        callId,
        toolName,
        progress,
        ...(total === undefined ? {} : { total }),
        ...(message === undefined ? {} : { message }),
      });
    },
  }).finally(() => {
    running = false;
    wake?.();
  });
  while (running || events.length > 0) {
    const event = events.shift();
    if (event) {
      yield event;
      continue;
    }
    // Checking and waiting happen in one synchronous step, so no wake-up can slip between them.
    await new Promise<void>((resolve) => {
      wake = resolve;
    });
    wake = undefined;
  }
  return all;
}

/** {@link runCalls} when nobody reads the results as they come (`run()`): no per-result hand-off. */
export function runCallsQuietly(
  env: RunEnv,
  pending: readonly PendingCall[],
  preps: readonly Preparation[],
  runnable: readonly number[],
  step: number,
): Promise<Execution[]> {
  return launch(env, pending, preps, runnable, step, undefined);
}

/** Who hears of a stream's calls as they go: each settled call, and each call's progress reports. */
interface Listener {
  settled(p: PendingCall): void;
  progress(callId: string, toolName: string): ToolProgress;
}

function launch(
  env: RunEnv,
  pending: readonly PendingCall[],
  preps: readonly Preparation[],
  runnable: readonly number[],
  step: number,
  listener: Listener | undefined,
): Promise<Execution[]> {
  const { config } = env;
  // A failing call (a tool under the "fail" policy, or a throwing hook) stops the calls still
  // in flight through a turn-level controller; made only when a call could end the turn early.
  const mayFail = config.onToolException === "fail" || config.beforeTool.length > 0 || config.afterTool.length > 0;
  const turn = mayFail && runnable.length > 1 ? new AbortController() : undefined;
  const signal = turn ? (env.hasSignal ? AbortSignal.any([env.signal, turn.signal]) : turn.signal) : env.signal;

  return mapConcurrent(runnable, config.maxConcurrentTools, async (index): Promise<Execution> => {
    const prep = preps[index] as Extract<Preparation, { kind: "run" }>;
    const p = pending[index] as PendingCall;
    const progress = listener?.progress(p.call.id, prep.tool.name);
    const site = { callId: p.call.id, step, signal, facts: prep.facts, ...(progress ? { progress } : {}) };
    const execution = await executeCall(env, site, prep.tool, prep.args);
    if (execution.kind === "failed") turn?.abort(execution.error);
    if (execution.kind === "settled") {
      p.result = execution.settled;
      listener?.settled(p);
    }
    return execution;
  });
}
