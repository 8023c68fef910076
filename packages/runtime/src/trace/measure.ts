import type { Message, ToolCall } from "../model/messages.js";
import type { CallRecord } from "../runner/types.js";
import type { TracedRun } from "./run-record.js";

/** The arguments of every call of a run as the model sent them, by call id, from the transcript. */
export function argumentsByCall(messages: readonly Message[]): ReadonlyMap<string, ToolCall["arguments"]> {
  const byId = new Map<string, ToolCall["arguments"]>();
  for (const message of messages) {
    if (message.role === "assistant") for (const call of message.toolCalls) byId.set(call.id, call.arguments);
  }
  return byId;
}

/** Arguments as one line of JSON (a string that is not JSON is shown as it came). */
export function argumentsText(args: ToolCall["arguments"] | undefined): string {
  if (args === undefined || args === null) return "{}";
  if (typeof args !== "string") return JSON.stringify(args);
  try {
    return JSON.stringify(JSON.parse(args));
  } catch {
    return args;
  }
}

/** Where the run's recorded timings start and end (ms since the epoch); `undefined` when it has none. */
export function timeSpan(run: TracedRun): { readonly start: number; readonly end: number } | undefined {
  let start = Number.POSITIVE_INFINITY;
  let end = Number.NEGATIVE_INFINITY;
  for (const step of run.steps) {
    for (const timed of [step, ...step.calls]) {
      if (timed.startedAt === undefined) continue;
      start = Math.min(start, timed.startedAt);
      end = Math.max(end, timed.startedAt + (timed.durationMs ?? 0));
    }
  }
  return start <= end ? { start, end } : undefined;
}

/** `812 ms`, `2.41 s`, `3 min 5 s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(2)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** `$0.0012`: four decimals below a cent, two above. */
export function formatCost(usd: number): string {
  return usd >= 0.01 ? `$${usd.toFixed(2)}` : `$${usd.toFixed(4)}`;
}

/** `1,234`. */
export function formatCount(n: number): string {
  return n.toLocaleString("en-US");
}

/** Cuts a text to one line of at most `max` characters, saying so with an ellipsis. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** Outcomes of calls that never ran: the loop settled them before any tool code. */
const NEVER_RAN: ReadonlySet<CallRecord["outcome"]> = new Set(["invalid_arguments", "unknown_tool", "rejected"]);

/** A call's duration as shown: its time, "not run", or nothing for a run recorded without timings. */
export function callTime(call: CallRecord): string | undefined {
  if (call.durationMs !== undefined) return formatDuration(call.durationMs);
  return NEVER_RAN.has(call.outcome) ? "not run" : undefined;
}
