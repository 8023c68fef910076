import type { RunResult } from "../runner/run-result.js";
import { answerText, RUN_RECORD_FORMAT, RUN_RECORD_VERSION, type RunRecord } from "./run-record.js";
import { formatTrace, type TraceOptions } from "./tree.js";

/** A run result's data, before it gets its methods. */
export type RunResultData = Omit<RunResult, "trace" | "toJSON">;

/**
 * Gives a run result its `trace()` and `toJSON()`, as methods that stay out of the way:
 * not enumerable, so spreading or inspecting a result shows its data only.
 */
export function traceable(data: RunResultData): RunResult {
  return Object.defineProperties(data, {
    trace: {
      value(this: RunResult, options?: TraceOptions): string {
        return formatTrace({ ...this, output: answerText(this.output) }, options);
      },
    },
    toJSON: {
      value(this: RunResult): RunRecord {
        return {
          format: RUN_RECORD_FORMAT,
          version: RUN_RECORD_VERSION,
          agentName: this.agentName,
          runId: this.runId,
          status: this.status,
          output: answerText(this.output),
          messages: this.messages,
          usage: this.usage,
          steps: this.steps,
          interruptions: this.interruptions,
          ...(this.state ? { state: this.state.toJSON() } : {}),
        };
      },
    },
  }) as RunResult;
}
