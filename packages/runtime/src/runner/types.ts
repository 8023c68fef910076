import type { Message, OutcomeKind, TokenUsage, ToolCall, ToolResultMessage } from "../agent/messages.js";
import type { FinishReason } from "../agent/model.js";
import type { Usage } from "../invoke/context.js";
import type { Repair } from "../repair/repair.js";
import type { RunRecord } from "../trace/run-record.js";
import type { TraceOptions } from "../trace/tree.js";
import type { RunState } from "./run-state.js";

/** A tool call waiting for a person's decision; approve or reject it on `result.state`. */
export interface Interruption {
  readonly callId: string;
  readonly toolName: string;
  /** The validated arguments that will run if approved as they are. */
  readonly args: Readonly<Record<string, unknown>>;
  /** Why the agent's policy asks (its autonomy tier, or the trifecta), when the tool itself did not. */
  readonly reason?: string;
}

/** What became of one tool call, as the run records it (more than the model is told). */
export interface CallRecord {
  readonly callId: string;
  readonly toolName: string;
  readonly outcome: OutcomeKind;
  /** What the model read. */
  readonly content: string;
  /** The full text behind a generic message (`onToolException: "return_generic"`); never sent to the model. */
  readonly detail?: string;
  /** Attempts the engine made (more than 1 when a retryable `ToolError` was retried). */
  readonly attempts: number;
  /** Lines the tool wrote to `ctx.log`. */
  readonly logs?: readonly LogLine[];
  /** Repairs made to the model's arguments before they validated; absent when none were needed. */
  readonly repairs?: readonly Repair[];
  /** A person's decision, when the call waited for approval. */
  readonly approval?: "approved" | "rejected";
  /** When the call started running (ms since the epoch); absent for calls that never ran (and in older runs). */
  readonly startedAt?: number;
  /** How long the call ran, hooks and engine retries included. */
  readonly durationMs?: number;
}

/** One line written through `ctx.log`. */
export interface LogLine {
  readonly level: "debug" | "info" | "warn" | "error";
  readonly message: string;
  readonly data?: unknown;
}

/** One model turn and the calls it made. */
export interface StepRecord {
  /** From 1. */
  readonly step: number;
  readonly text: string;
  readonly usage: TokenUsage;
  readonly calls: CallRecord[];
  /** The model's id (`provider:model`); absent in runs recorded by older versions, as are the fields below. */
  readonly model?: string;
  /** When the model request started (ms since the epoch). */
  readonly startedAt?: number;
  /** How long the model took to answer, retries included. */
  readonly durationMs?: number;
  /** This turn's cost in USD at the model's price (0 when no price is known). */
  readonly costUsd?: number;
  readonly finishReason?: FinishReason;
}

/** How a run ended: with a final answer, paused for approvals, or stopped by a limit (on a `RunError`'s result). */
export type RunStatus = "completed" | "interrupted" | "stopped";

/** What `agent.run()` returns, and what a limit error carries as its partial result. */
export interface RunResult {
  readonly agentName: string;
  readonly runId: string;
  readonly status: RunStatus;
  /** The final answer; `undefined` while interrupted or when a limit ended the run. */
  readonly output: string | undefined;
  /** The transcript, well-formed: every tool call has exactly one result. */
  readonly messages: readonly Message[];
  readonly usage: Readonly<Usage>;
  readonly steps: readonly StepRecord[];
  /** Calls waiting for approval; empty unless `status` is `"interrupted"`. */
  readonly interruptions: readonly Interruption[];
  /** Present when interrupted: approve or reject, then `agent.run(state)`. */
  readonly state: RunState | undefined;
  /**
   * The run as a readable tree: turns, and calls with their arguments, outcome, duration,
   * tokens, cost, repairs, retries and approvals.
   *
   * @example
   * ```ts
   * console.log(result.trace({ color: process.stdout.isTTY }));
   * ```
   */
  trace(options?: TraceOptions): string;
  /** The saved form, `JSON.stringify(result)`: what `toolwright trace` and `toolwright view` read. */
  toJSON(): RunRecord;
}

/** Events of `agent.stream()`; `run()` is the same loop with the events drained. */
export type AgentStreamEvent =
  | { readonly type: "turn-start"; readonly step: number }
  | { readonly type: "text-delta"; readonly step: number; readonly delta: string }
  | {
      readonly type: "tool-call-start";
      readonly step: number;
      readonly index: number;
      readonly callId: string;
      readonly toolName: string;
    }
  | { readonly type: "tool-call-delta"; readonly step: number; readonly index: number; readonly delta: string }
  | { readonly type: "tool-call-end"; readonly step: number; readonly index: number; readonly call: ToolCall }
  /** The provider is sending the turn again: drop the deltas of this step seen so far. */
  | { readonly type: "model-retry"; readonly step: number; readonly attempt: number; readonly error: Error }
  | {
      readonly type: "tool-result";
      readonly step: number;
      readonly message: ToolResultMessage;
      readonly record: CallRecord;
    }
  | { readonly type: "step-finish"; readonly step: number; readonly usage: TokenUsage; readonly record: StepRecord }
  | { readonly type: "run-finish"; readonly result: RunResult };
