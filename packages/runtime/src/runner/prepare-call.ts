import type { Tool, ToolArgs } from "../tools/tool-types.js";
import { validateArguments } from "../validation/arguments.js";
import type { RunEnv } from "./env.js";
import { type CallFacts, rejectedText, type SettledCall, settle, unknownToolText } from "./outcome.js";
import { admitCall, egressRefusal, policyVerdict } from "./policy-gate.js";
import { countRepeat, repeatMessage } from "./repeated-calls.js";
import type { PendingCall } from "./snapshot.js";
import { makeContext } from "./tool-context.js";

/** Where a call stands before it runs. */
export type Preparation =
  /** It already has its result (finished earlier, or settled without running). */
  | { readonly kind: "settled"; readonly settled: SettledCall }
  /** Valid, allowed and approved if needed: run it with these arguments; `facts` go into its record. */
  | { readonly kind: "run"; readonly tool: Tool; readonly args: ToolArgs; readonly facts: CallFacts }
  /** Waiting for a person. */
  | { readonly kind: "interrupt" }
  /** A repeated identical call under `repeatedCalls.action: "fail"`. */
  | { readonly kind: "repeat_fail"; readonly toolName: string; readonly count: number };

/**
 * Resolves the tool, validates the arguments, counts repeats and asks for approval. Runs
 * in call order (repeat counting depends on it); nothing here runs tool code except an
 * approval predicate.
 */
export async function prepareCall(env: RunEnv, pending: PendingCall, step: number): Promise<Preparation> {
  if (pending.result) return { kind: "settled", settled: pending.result };
  const { call } = pending;
  const { config } = env;
  const tool = config.tools.get(call.name);
  if (!tool) {
    const names = config.toolNames;
    return { kind: "settled", settled: settle(call.id, call.name, "unknown_tool", unknownToolText(call.name, names)) };
  }

  const approval = pending.approval;
  if (approval?.status === "rejected") {
    const text = rejectedText(approval.message);
    return { kind: "settled", settled: settle(call.id, tool.name, "rejected", text, { approval: "rejected" }) };
  }
  if (approval?.status === "pending") return { kind: "interrupt" };
  if (approval?.status === "approved") {
    // Validated again: the state may have crossed a process boundary since the person approved it.
    const checked = validateArguments(tool, approval.args);
    if (!checked.ok) {
      const settled = settle(call.id, tool.name, "invalid_arguments", checked.error.message, { approval: "approved" });
      return { kind: "settled", settled };
    }
    const refused = egressRefusal(env, tool, checked.args);
    if (refused) return { kind: "settled", settled: settle(call.id, tool.name, "rejected", rejectedText(refused)) };
    admitCall(env, tool);
    return { kind: "run", tool, args: checked.args, facts: { repairs: checked.repairs, approval: "approved" } };
  }

  const checked = validateArguments(tool, call.arguments);
  if (!checked.ok)
    return { kind: "settled", settled: settle(call.id, tool.name, "invalid_arguments", checked.error.message) };

  if (!pending.counted) {
    pending.counted = true;
    const count = countRepeat(env.snapshot.repeat, tool.name, checked.args);
    if (count >= config.repeatLimit) {
      if (config.repeatAction === "fail") return { kind: "repeat_fail", toolName: tool.name, count };
      return { kind: "settled", settled: settle(call.id, tool.name, "tool_error", repeatMessage(tool.name, count)) };
    }
  }

  const verdict = policyVerdict(env, tool, checked.args);
  if (verdict.kind === "refuse") {
    return { kind: "settled", settled: settle(call.id, tool.name, "rejected", rejectedText(verdict.message)) };
  }
  if (verdict.kind === "approve" || (await needsApproval(env, tool, checked.args, call.id, step))) {
    const reason = verdict.kind === "approve" ? { reason: verdict.reason } : {};
    pending.approval = { status: "pending", args: checked.args, ...reason };
    return { kind: "interrupt" };
  }
  admitCall(env, tool);
  return { kind: "run", tool, args: checked.args, facts: { repairs: checked.repairs } };
}

async function needsApproval(env: RunEnv, tool: Tool, args: ToolArgs, callId: string, step: number): Promise<boolean> {
  const gate = tool.needsApproval ?? tool.flags.needsApproval;
  if (typeof gate !== "function") return gate === true;
  const ctx = makeContext(env, callId, tool.name, step, 1, env.signal, []);
  try {
    return (await gate(ctx, args)) === true;
  } catch {
    // Fail closed: when the predicate cannot decide, a person does.
    return true;
  }
}
