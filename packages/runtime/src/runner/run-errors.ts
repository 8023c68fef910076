import { ToolwrightError, type ValidationIssue } from "../errors.js";
import type { RunResult } from "./run-result.js";

/**
 * A run ended early because a limit was reached or the caller cancelled it. Carries
 * the partial result (transcript, usage, steps) up to the last complete turn.
 */
export class RunError extends ToolwrightError {
  override name = "RunError";
  constructor(
    message: string,
    /** Everything the run produced before it stopped; `messages` is a well-formed transcript. */
    readonly result: RunResult,
  ) {
    super(message);
  }
}

/** The model was still calling tools after `maxTurns` model turns. */
export class MaxTurnsExceededError extends RunError {
  override name = "MaxTurnsExceededError";
  constructor(
    readonly maxTurns: number,
    result: RunResult,
  ) {
    super(
      `agent "${result.agentName}" used all ${maxTurns} turns (maxTurns) without a final answer. ` +
        `Raise maxTurns in the Agent options or in run(…, { maxTurns }), or look at result.steps for a loop.`,
      result,
    );
  }
}

/** The run's cost, from usage times the model's prices, went over `maxCostUsd`. */
export class BudgetExceededError extends RunError {
  override name = "BudgetExceededError";
  constructor(
    readonly maxCostUsd: number,
    readonly costUsd: number,
    result: RunResult,
  ) {
    super(
      `agent "${result.agentName}" spent $${costUsd.toFixed(6)}, over its budget of $${maxCostUsd} (maxCostUsd). ` +
        `Raise maxCostUsd, or lower maxTurns so a run stops sooner.`,
      result,
    );
  }
}

/** The caller's `signal` aborted the run; tool calls and model requests in flight were aborted too. */
export class RunAbortedError extends RunError {
  override name = "RunAbortedError";
  constructor(
    readonly reason: unknown,
    result: RunResult,
  ) {
    super(`agent "${result.agentName}" was aborted by the caller's signal (${describeReason(reason)}).`, result);
  }
}

/** The model made the same call (same tool, same arguments) too many times in a row, with `repeatedCalls.action: "fail"`. */
export class RepeatedCallError extends RunError {
  override name = "RepeatedCallError";
  constructor(
    readonly toolName: string,
    readonly count: number,
    result: RunResult,
  ) {
    super(
      `agent "${result.agentName}" called tool "${toolName}" with identical arguments ${count} times in a row. ` +
        `Set repeatedCalls: { action: "tell_model" } to let the model recover, or raise repeatedCalls.limit.`,
      result,
    );
  }
}

/**
 * A call ended the run: its tool threw an unexpected exception while the agent's
 * `onToolException` is `"fail"`, or one of the agent's tool hooks threw (`source: "hook"`).
 */
export class ToolCallFailedError extends RunError {
  override name = "ToolCallFailedError";
  constructor(
    readonly toolName: string,
    readonly callId: string,
    override readonly cause: unknown,
    result: RunResult,
    /** Whose code threw: the tool's, or a `beforeTool`/`afterTool` hook's. */
    readonly source: "tool" | "hook" = "tool",
  ) {
    super(
      source === "tool"
        ? `tool "${toolName}" (call ${callId}) threw: ${describeReason(cause)}. The agent's onToolException is "fail"; ` +
            `throw a ToolError from the tool to tell the model instead, or use "return_to_model" / "return_generic".`
        : `a tool hook threw around tool "${toolName}" (call ${callId}): ${describeReason(cause)}. ` +
            `Hooks are the application's code: fix the hook, or return a decision ({ action: "block", message }) instead of throwing.`,
      result,
    );
  }
}

/**
 * The model's final answer did not fit the run's `output` schema, and the feedback it was
 * sent did not help within `outputRetries`. The partial result's transcript ends with the
 * last answer it gave.
 */
export class InvalidAnswerError extends RunError {
  override name = "InvalidAnswerError";
  // The message is written where the answers are checked (runner/final-answer.ts), code only
  // runs with an `output` schema load.
  constructor(
    message: string,
    /** The answers the model gave, all refused. */
    readonly attempts: number,
    /** What was wrong with the last one, as data. */
    readonly issues: readonly ValidationIssue[],
    result: RunResult,
  ) {
    super(message, result);
  }
}

/** A sub-agent run would go deeper than `maxDepth` (a sub-agent calling itself, directly or not). */
export class MaxDepthExceededError extends ToolwrightError {
  override name = "MaxDepthExceededError";
  constructor(
    readonly agentName: string,
    readonly maxDepth: number,
  ) {
    super(
      `sub-agent "${agentName}" would run at depth ${maxDepth + 1}, past maxDepth ${maxDepth}. ` +
        `Check for agents that call each other in a cycle, or raise maxDepth in the Agent options.`,
    );
  }
}

function describeReason(reason: unknown): string {
  if (reason instanceof Error) return `${reason.name}: ${reason.message}`;
  return String(reason);
}
