import type { Usage } from "../invoke/context.js";
import type { Message, ToolCall, ToolResultMessage } from "../model/messages.js";
import type { Touched } from "../policy/capabilities.js";
import type { RepeatState } from "./repeated-calls.js";
import type { CallRecord, StepRecord } from "./types.js";

/** A person's decision on a gated call, or the wait for one. */
export type Approval =
  | {
      readonly status: "pending";
      readonly args: Readonly<Record<string, unknown>>;
      /** Why the agent's policy (not the tool) asks, when it does. */
      readonly reason?: string;
    }
  | { readonly status: "approved"; readonly args: Readonly<Record<string, unknown>> }
  | { readonly status: "rejected"; readonly message: string };

/** One call of the turn in progress: its result once it has one, and its approval when gated. */
export interface PendingCall {
  readonly call: ToolCall;
  result?: { readonly message: ToolResultMessage; readonly record: CallRecord };
  approval?: Approval;
  /** Set once the call went through the repeated-call count, so a resume does not count it again. */
  counted?: boolean;
}

/**
 * Everything a run needs to go on: plain JSON, so it serializes as is. The loop mutates
 * it as the run advances; {@link RunState} wraps it while paused.
 */
export interface RunSnapshot {
  readonly runId: string;
  /** Model turns made so far. */
  step: number;
  /** The transcript; while a turn is in progress, it ends with that turn's assistant message. */
  messages: Message[];
  usage: Usage;
  steps: StepRecord[];
  /** The calls of the last assistant message, while some still lack a result. */
  pending: PendingCall[] | undefined;
  /** `Retry(hint)` round trips used so far, per tool name. */
  retriesUsed: Record<string, number>;
  repeat: RepeatState;
  /**
   * What the run's calls have touched (private data, untrusted content, egress), for the
   * trifecta policy. A sub-run shares its parent's. States saved before it existed load with none.
   */
  touched: Touched;
}
