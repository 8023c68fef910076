import type { Usage } from "../invoke/context.js";
import type { Message } from "../model/messages.js";
import type { RunStateJson } from "../runner/run-state.js";
import type { Interruption, RunStatus, StepRecord } from "../runner/types.js";

/** The `format` field of a saved run (`JSON.stringify(result)`). */
export const RUN_RECORD_FORMAT = "toolwright.run";
/** The version of saved runs this toolwright writes and reads. */
export const RUN_RECORD_VERSION = 1;

/** A run's final answer as text: the model's own text, or a typed answer's JSON. */
export function answerText(output: unknown): string | undefined {
  return output === undefined || typeof output === "string" ? output : JSON.stringify(output);
}

/** What a trace or the viewer shows of a run: a run result's data, without its methods. */
export interface TracedRun {
  readonly agentName: string;
  readonly runId: string;
  readonly status: RunStatus;
  readonly output?: string | undefined;
  readonly messages: readonly Message[];
  readonly usage: Readonly<Usage>;
  readonly steps: readonly StepRecord[];
  readonly interruptions: readonly Interruption[];
}

/** The JSON form of a run result: what `JSON.stringify(result)` writes and `toolwright trace` reads. */
export interface RunRecord extends TracedRun {
  readonly format: typeof RUN_RECORD_FORMAT;
  readonly version: number;
  /** The paused run's state, when the run was interrupted. */
  readonly state?: RunStateJson;
}
