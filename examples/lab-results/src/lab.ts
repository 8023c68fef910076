import { type ToolContext, ToolError } from "toolwright";

/** A result of one analyte. */
export interface LabValue {
  analyte: string;
  value: number;
  unit: string;
}

/** The hospital systems the tools reach, passed as `run(…, { deps })`. */
export interface LabDeps {
  /** The lab system; throws `LabBusyError` when it is overloaded. */
  readonly lab: { panel(patientId: string, panel: string, signal: AbortSignal): Promise<LabValue[]> };
  /** The imaging archive; slow for large studies. */
  readonly imaging: { report(studyId: string, signal: AbortSignal): Promise<string> };
  /** Reference ranges by analyte. */
  readonly ranges: Map<string, { low: number; high: number }>;
}

/** The lab system's "try again later". */
export class LabBusyError extends Error {
  override name = "LabBusyError";
}

/**
 * Fetch one lab panel of a patient.
 * @param patientId The patient's id, e.g. "P-1001".
 * @param panel Which panel: complete blood count, basic metabolic panel or lipids.
 * @readOnly
 * @capability private_data
 */
export async function fetchPanel(
  patientId: string,
  panel: "cbc" | "bmp" | "lipid",
  ctx: ToolContext<LabDeps>,
): Promise<LabValue[]> {
  try {
    return await ctx.deps.lab.panel(patientId, panel, ctx.signal);
  } catch (error) {
    // Transient: the engine retries this read-only tool with backoff before the model hears of it.
    if (error instanceof LabBusyError)
      throw new ToolError("The lab system is busy.", { retryable: true, cause: error });
    throw error;
  }
}

/**
 * Fetch the radiologist's report of an imaging study.
 * @param studyId The study id, e.g. "S-77".
 * @readOnly
 * @capability private_data
 */
export function fetchImagingReport(studyId: string, ctx: ToolContext<LabDeps>): Promise<string> {
  // The signal aborts when the tool's time limit passes; the archive request stops with it.
  return ctx.deps.imaging.report(studyId, ctx.signal);
}

/**
 * Flag a value against its reference range: "low", "normal" or "high".
 * @param analyte The analyte's name as the lab reports it, e.g. "hemoglobin".
 * @param value The measured value, in the lab's unit.
 * @readOnly
 */
export function flagValue(analyte: string, value: number, ctx: ToolContext<LabDeps>): "low" | "normal" | "high" {
  const range = ctx.deps.ranges.get(analyte);
  // A missing range is a bug in our tables, not something the model can fix: it throws, and
  // the agent's "return_generic" policy keeps the details out of the conversation.
  if (!range) throw new Error(`reference table lab_ranges_v3 has no row for "${analyte}" (db host 10.0.4.12)`);
  return value < range.low ? "low" : value > range.high ? "high" : "normal";
}

/**
 * Read a published clinical guideline (e.g. reference ranges for an age group) from the web.
 * @param url The guideline's https address, on a site the deployment allows.
 * @readOnly
 * @capability untrusted_content
 * @egress url
 */
export async function readGuideline(url: string, ctx: ToolContext<LabDeps>): Promise<string> {
  // ctx.fetch checks the URL and every redirect against the agent's egress allowlist.
  const response = await ctx.fetch(url);
  if (!response.ok) throw new ToolError(`The guideline site answered ${response.status}.`);
  return (await response.text()).slice(0, 4_000);
}
