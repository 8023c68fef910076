import { Agent, type Model, type ToolRetryPolicy, tool } from "toolwright";
import { fetchImagingReport, fetchPanel, flagValue, type LabDeps } from "./lab.js";

/** Knobs a deployment (or a test) sets. */
export interface LabAgentOptions {
  /** Time limit of an imaging report (default 10 s). */
  readonly imagingTimeoutMs?: number;
  readonly toolRetry?: ToolRetryPolicy;
}

/** The lab-results agent. */
export function labAgent(model: Model | string, options: LabAgentOptions = {}): Agent<LabDeps> {
  return new Agent<LabDeps>({
    name: "lab-results",
    model,
    instructions: "Summarise a patient's lab results for a clinician. Say when a result could not be fetched.",
    tools: [fetchPanel, tool(fetchImagingReport, { timeoutMs: options.imagingTimeoutMs ?? 10_000 }), flagValue],
    toolRetry: options.toolRetry ?? { maxAttempts: 3, initialBackoffMs: 500 },
    onToolException: "return_generic",
  });
}
