import type { ModelRequest } from "../model/model.js";
import { ProviderError } from "../providers/errors.js";
import { traceable } from "../trace/traceable.js";
import type { RunEnv } from "./env.js";
import { generatedTurn, modelTurn } from "./model-turn.js";
import { type Preparation, prepareCall } from "./prepare-call.js";
import { runCalls, runCallsQuietly } from "./run-calls.js";
import {
  BudgetExceededError,
  MaxTurnsExceededError,
  RepeatedCallError,
  RunAbortedError,
  RunError,
  ToolCallFailedError,
} from "./run-errors.js";
import type { AgentStreamEvent, RunResult } from "./run-result.js";
import { RunState } from "./run-state.js";
import type { PendingCall } from "./snapshot.js";
import { stepRecord } from "./step-record.js";
import type { CallRecord, RunStatus, StepRecord } from "./types.js";
import { addResponse } from "./usage.js";

/**
 * The run loop, shared by `agent.run` (which drains it) and `agent.stream`: ask the
 * model, run the calls of its turn, append their results in call order, and go on until
 * a final answer, a pause for approval, or a limit (a typed error with the partial result).
 */
export async function* runLoop(env: RunEnv): AsyncGenerator<AgentStreamEvent, RunResult> {
  try {
    if (env.snapshot.pending) {
      const paused = yield* resolveTurn(env);
      if (paused) return yield* finish(env, paused);
    }
    for (;;) {
      checkLimits(env);
      const { snapshot, config } = env;
      const step = ++snapshot.step;
      if (env.events) yield { type: "turn-start", step };
      const request: ModelRequest = {
        ...(config.instructions === undefined ? {} : { instructions: config.instructions }),
        messages: snapshot.messages.slice(),
        tools: config.definitions,
        ...env.answer?.request,
        ...(env.hasSignal ? { signal: env.signal } : {}),
      };
      const startedAt = Date.now();
      // Unstreamed and unwrapped, a turn is one `generate()`: no event stream to make and read.
      const response =
        env.streaming || config.modelMiddleware.length > 0
          ? yield* modelTurn(env, request, step)
          : await generatedTurn(env, request, step);
      addResponse(snapshot.usage, response.usage, env.price);
      const { message } = response;
      snapshot.steps.push(stepRecord(env, step, response, startedAt));

      if (message.toolCalls.length === 0) {
        snapshot.messages.push(message);
        if (env.events) yield { type: "step-finish", step, usage: response.usage, record: lastStep(env) };
        // A typed answer is read and checked; one that does not fit leaves feedback for another turn.
        const answer = env.answer ? env.answer.fromText(env, response, () => partial(env)) : { value: message.content };
        if (!answer) continue;
        return yield* finish(env, resultOf(env, "completed", answer.value));
      }
      // Spent past the budget with work still asked for: stop before running it (the turn stays out of the transcript).
      if (overBudget(env)) throw budgetError(env);
      snapshot.messages.push(message);
      snapshot.pending = message.toolCalls.map((call) => ({ call }));
      const paused = yield* resolveTurn(env);
      if (paused) return yield* finish(env, paused);
      const answer = env.answer?.fromTools(env, () => partial(env));
      if (answer) return yield* finish(env, resultOf(env, "completed", answer.value));
    }
  } catch (error) {
    if (error instanceof RunError) throw error;
    if (env.signal.aborted) throw new RunAbortedError(env.signal.reason, partial(env));
    // A provider failing mid-run (a 400 on turn 2, after tools ran) keeps its type, and carries what the run made.
    if (error instanceof ProviderError) error.result ??= partial(env);
    throw error;
  }
}

/** Ends the run, completed or paused, with its `run-finish` event. */
async function* finish(env: RunEnv, result: RunResult): AsyncGenerator<AgentStreamEvent, RunResult> {
  if (env.events) yield { type: "run-finish", result };
  return result;
}

/**
 * Settles the calls of the turn in progress: prepares them in call order, runs the
 * runnable ones concurrently (capped), and appends every result in call order (events
 * come as results do). Returns an interrupted result when some call waits for approval.
 */
async function* resolveTurn(env: RunEnv): AsyncGenerator<AgentStreamEvent, RunResult | undefined> {
  const { snapshot, config } = env;
  const pending = snapshot.pending ?? [];
  const step = snapshot.step;

  const preps: Preparation[] = [];
  for (const p of pending) {
    const prep = await prepareCall(env, p, step);
    if (prep.kind === "repeat_fail") throw new RepeatedCallError(prep.toolName, prep.count, partial(env));
    preps.push(prep);
  }

  // Results that need no run (unknown tool, invalid arguments, rejected ...) come first.
  // Plain index loops here and below: this runs on every turn, and `flatMap` allocates per call.
  const runnable: number[] = [];
  for (let index = 0; index < preps.length; index++) {
    const prep = preps[index] as Preparation;
    if (prep.kind === "run") runnable.push(index);
    const p = pending[index] as PendingCall;
    if (prep.kind !== "settled" || p.result) continue;
    p.result = prep.settled;
    if (env.streaming) yield { type: "tool-result", step, message: prep.settled.message, record: prep.settled.record };
  }
  const executions =
    runnable.length === 0
      ? []
      : env.streaming
        ? yield* runCalls(env, pending, preps, runnable, step)
        : await runCallsQuietly(env, pending, preps, runnable, step);
  if (env.signal.aborted) throw new RunAbortedError(env.signal.reason, partial(env));

  const calls: CallRecord[] = [];
  for (const p of pending) if (p.result) calls.push(p.result.record);
  // A copy, so a paused result's record stays as it was; cloned first, then given its calls (same key order).
  const record: { -readonly [K in keyof StepRecord]: StepRecord[K] } = { ...lastStep(env) };
  record.calls = calls;
  snapshot.steps[snapshot.steps.length - 1] = record;
  // A failing call ends the run; its partial result records the calls of the turn that settled.
  const failed = executions.find((e) => e.kind === "failed");
  if (failed?.kind === "failed") {
    throw new ToolCallFailedError(failed.toolName, failed.callId, failed.error, partial(env), failed.source);
  }

  if (pending.some((p) => !p.result)) {
    const state = new RunState(config, snapshot);
    return resultOf(env, "interrupted", undefined, state);
  }
  for (const p of pending) if (p.result) snapshot.messages.push(p.result.message);
  snapshot.pending = undefined;
  if (env.events) yield { type: "step-finish", step, usage: record.usage, record };
  // Sub-agents spend from the same budget while tools run.
  if (overBudget(env)) throw budgetError(env);
  return undefined;
}

function checkLimits(env: RunEnv): void {
  if (env.signal.aborted) throw new RunAbortedError(env.signal.reason, partial(env));
  if (env.snapshot.step >= env.maxTurns) throw new MaxTurnsExceededError(env.maxTurns, partial(env));
  if (overBudget(env)) throw budgetError(env);
}

function overBudget(env: RunEnv): boolean {
  return env.maxCostUsd !== undefined && env.snapshot.usage.costUsd >= env.maxCostUsd;
}

function budgetError(env: RunEnv): BudgetExceededError {
  return new BudgetExceededError(env.maxCostUsd ?? 0, env.snapshot.usage.costUsd, partial(env));
}

function lastStep(env: RunEnv) {
  const steps = env.snapshot.steps;
  return steps[steps.length - 1] as (typeof steps)[number];
}

function resultOf(
  env: RunEnv,
  status: RunStatus,
  output: unknown,
  state?: RunState,
  messages = env.snapshot.messages,
): RunResult {
  const { snapshot, config } = env;
  return traceable({
    agentName: config.name,
    runId: snapshot.runId,
    status,
    // The text, or the typed answer: the Agent's `Output` types it where a caller reads it.
    output: output as string | undefined,
    messages,
    usage: snapshot.usage,
    steps: snapshot.steps,
    interruptions: state ? state.interruptions : [],
    state,
  });
}

/** What a run that ended early produced: the transcript without a turn whose calls lack results. */
function partial(env: RunEnv): RunResult {
  const { snapshot } = env;
  const messages = snapshot.pending ? snapshot.messages.slice(0, -1) : snapshot.messages.slice();
  return resultOf(env, "stopped", undefined, undefined, messages);
}
