import type { RunSnapshot } from "../runner/snapshot.js";
import type { Tool } from "../tools/tool-types.js";
import type { CallEntry } from "./run-store.js";
import { OUTCOME_UNKNOWN } from "./stored-state.js";

/**
 * Before a claimed run goes on: a call whose last attempt started but never finished (its
 * worker died mid-call) runs again only when its tool is idempotent or read-only; any other
 * such call waits for a person with an {@link OUTCOME_UNKNOWN} interruption, since running
 * it twice could repeat its effect.
 */
export function reconcile(
  snapshot: RunSnapshot,
  calls: readonly CallEntry[],
  tools: ReadonlyMap<string, Tool>,
  validateArgs: (toolName: string, args: unknown) => Readonly<Record<string, unknown>>,
): void {
  const last = new Map<string, CallEntry>();
  for (const c of calls) {
    const seen = last.get(c.callKey);
    if (!seen || c.attempt > seen.attempt) last.set(c.callKey, c);
  }
  for (const p of snapshot.pending ?? []) {
    // Decided already: waiting for a person, or refused (a rejected call never runs).
    if (p.result || p.approval?.status === "pending" || p.approval?.status === "rejected") continue;
    if (last.get(`${snapshot.step}:${p.call.id}`)?.status !== "started") continue;
    const flags = tools.get(p.call.name)?.flags;
    if (flags?.idempotent === true || flags?.readOnly === true) continue;
    const args = p.approval?.status === "approved" ? p.approval.args : validateArgs(p.call.name, p.call.arguments);
    p.approval = { status: "pending", args, reason: OUTCOME_UNKNOWN };
  }
}
