import type { OutcomeKind, TokenUsage } from "../model/messages.js";
import type { FinishReason } from "../model/model.js";
import type { Repair } from "../repair/repair.js";

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
  /** The model the provider's answer names (`ModelResponse.model`), when it names one. */
  readonly responseModel?: string;
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
