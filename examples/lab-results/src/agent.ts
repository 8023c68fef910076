import { Agent, type Model, type ToolRetryPolicy, tool } from "toolwright";
import { fetchImagingReport, fetchPanel, flagValue, type LabDeps, readGuideline } from "./lab.js";

/** Knobs a deployment (or a test) sets. */
export interface LabAgentOptions {
  /** Time limit of an imaging report (default 10 s). */
  readonly imagingTimeoutMs?: number;
  readonly toolRetry?: ToolRetryPolicy;
  /** Where guidelines may be read from (default: the guideline publisher's site only). */
  readonly guidelineSites?: readonly string[];
}

/**
 * The lab-results agent. Patient data is private; guidelines come from the web, which is
 * untrusted content and a way out: reading one after a patient's results would complete
 * the lethal trifecta, so that call waits for a clinician's approval (`trifecta: "approve"`).
 */
export function labAgent(model: Model | string, options: LabAgentOptions = {}): Agent<LabDeps> {
  return new Agent<LabDeps>({
    name: "lab-results",
    model,
    instructions: "Summarise a patient's lab results for a clinician. Say when a result could not be fetched.",
    tools: [
      fetchPanel,
      tool(fetchImagingReport, { timeoutMs: options.imagingTimeoutMs ?? 10_000 }),
      flagValue,
      readGuideline,
    ],
    toolRetry: options.toolRetry ?? { maxAttempts: 3, initialBackoffMs: 500 },
    onToolException: "return_generic",
    trifecta: "approve",
    egress: { allow: options.guidelineSites ?? ["guidelines.example.org"] },
  });
}
