import type { FinishReason } from "../model.js";

/**
 * Normalises a provider's stop reason. When the turn has tool calls it is a tool turn,
 * whatever the server said (gpt-4o, Gemini and local servers say `stop` for calls).
 */
export function finishReason(
  raw: unknown,
  hasCalls: boolean,
  table: Readonly<Record<string, FinishReason>>,
): FinishReason {
  if (hasCalls) return "tool_calls";
  if (typeof raw !== "string") return "other";
  return table[raw] ?? "other";
}
