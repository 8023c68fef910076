import type { Usage } from "../invoke/context.js";
import type { Message, TokenUsage, ToolCall, ToolResultMessage } from "../model/messages.js";
import type { PartialOutput } from "../output/partial-answer.js";
import type { RunRecord } from "../trace/run-record.js";
import type { TraceOptions } from "../trace/tree.js";
import type { RunState } from "./run-state.js";
import type { CallRecord, Interruption, RunStatus, StepRecord } from "./types.js";

/**
 * What `agent.run()` returns, and what a limit error carries as its partial result. `Output`
 * is the final answer's type: the text the model wrote, or the type of the run's `output`
 * schema (`schema<T>()`).
 */
export interface RunResult<Output = string> {
  readonly agentName: string;
  readonly runId: string;
  readonly status: RunStatus;
  /**
   * The final answer: the model's text, or, with an `output` schema, the answer validated
   * against it (repaired, with its `Date`s revived); `undefined` while interrupted or when a
   * limit ended the run.
   */
  readonly output: Output | undefined;
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
export type AgentStreamEvent<Output = string> =
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
  /** A running tool reported how far it has come (`ctx.progress`, or a remote MCP tool's progress). */
  | {
      readonly type: "tool-progress";
      readonly step: number;
      readonly callId: string;
      readonly toolName: string;
      readonly progress: number;
      readonly total?: number;
      readonly message?: string;
    }
  /** The provider is sending the turn again: drop the deltas of this step seen so far. */
  | { readonly type: "model-retry"; readonly step: number; readonly attempt: number; readonly error: Error }
  | {
      readonly type: "tool-result";
      readonly step: number;
      readonly message: ToolResultMessage;
      readonly record: CallRecord;
    }
  | { readonly type: "step-finish"; readonly step: number; readonly usage: TokenUsage; readonly record: StepRecord }
  /**
   * The typed answer so far, as its JSON streams in (runs with an `output` schema, from
   * providers that stream): not validated yet; the checked answer is `run-finish`'s output.
   */
  | { readonly type: "partial-output"; readonly step: number; readonly output: PartialOutput<Output> }
  | { readonly type: "run-finish"; readonly result: RunResult<Output> };
