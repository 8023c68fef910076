import type { FinishReason } from "../model/model.js";

/**
 * Normalises a provider's stop reason. A turn with tool calls that the server says simply
 * stopped is a tool turn (gpt-4o, Gemini and local servers say `stop` for calls); `length`
 * and filters are kept, so a call cut off by the token limit still says so.
 */
export function finishReason(
  raw: unknown,
  hasCalls: boolean,
  table: Readonly<Record<string, FinishReason>>,
): FinishReason {
  const mapped = typeof raw === "string" ? (table[raw] ?? "other") : "other";
  return hasCalls && (mapped === "stop" || mapped === "other") ? "tool_calls" : mapped;
}
