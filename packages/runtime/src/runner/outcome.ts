import type { MediaPart, OutcomeKind, ToolResultMessage } from "../model/messages.js";
import { quote } from "../validation/render.js";
import type { CallRecord, LogLine } from "./types.js";

/** What the run records about a call besides its outcome: repairs, a person's decision, timing. */
export type CallFacts = Pick<CallRecord, "repairs" | "approval" | "startedAt" | "durationMs">;

/** A finished call: what the model reads and what the run records. */
export interface SettledCall {
  readonly message: ToolResultMessage;
  readonly record: CallRecord;
}

/** Builds the result message and its record from one outcome. */
export function settle(
  callId: string,
  toolName: string,
  outcome: OutcomeKind,
  content: string,
  extra: CallFacts & {
    readonly attempts?: number;
    readonly detail?: string;
    readonly logs?: readonly LogLine[];
    readonly media?: readonly MediaPart[] | undefined;
  } = {},
): SettledCall {
  // Assigned in place rather than spread: this runs for every call (the keys keep this order).
  const record: { -readonly [K in keyof CallRecord]: CallRecord[K] } = {
    callId,
    toolName,
    outcome,
    content,
    attempts: extra.attempts ?? 0,
  };
  if (extra.detail !== undefined) record.detail = extra.detail;
  if (extra.logs?.length) record.logs = extra.logs;
  if (extra.repairs?.length) record.repairs = extra.repairs;
  if (extra.approval !== undefined) record.approval = extra.approval;
  if (extra.startedAt !== undefined) {
    record.startedAt = extra.startedAt;
    record.durationMs = extra.durationMs;
  }
  const message: ToolResultMessage = { role: "tool", callId, toolName, content, outcome, isError: outcome !== "ok" };
  return { message: extra.media?.length ? { ...message, media: extra.media } : message, record };
}

/** The model-facing text of an unknown tool: the available names, so it can pick one; the model's name is cut. */
export function unknownToolText(name: string, available: readonly string[]): string {
  return `Unknown tool ${quote(name, "a name")}. Available tools: ${available.length ? available.join(", ") : "none"}.`;
}

/** The model-facing text of a call a person (or a `beforeTool` hook) refused. */
export function rejectedText(message: string): string {
  return `Not run: ${message}`;
}

/** The model-facing text of a timeout. */
export function timeoutText(toolName: string, timeoutMs: number): string {
  return `${toolName} did not finish within ${timeoutMs} ms and was stopped.`;
}

/** What the model reads under `onToolException: "return_generic"`; the real error stays in the record. */
export const GENERIC_FAILURE = "The tool failed with an internal error. Try something else or tell the user.";
