import { autonomyReason } from "../policy/autonomy.js";
import { completesTrifecta, touch, trifectaReason, trifectaRefusal } from "../policy/trifecta.js";
import type { Tool, ToolArgs } from "../tools/tool-types.js";
import type { RunEnv } from "./env.js";

/** What the agent's security policy says about one valid call, before the tool's own approval gate. */
export type PolicyVerdict =
  | { readonly kind: "run" }
  /** The call does not run; the model reads `message` (after "Not run: ") as a `rejected` result. */
  | { readonly kind: "refuse"; readonly message: string }
  /** A person decides; `reason` is shown with the interruption. */
  | { readonly kind: "approve"; readonly reason: string };

/**
 * The policy on a new call: the egress allowlist first (no approval can widen it), then
 * the trifecta, then the agent's autonomy tier.
 */
export function policyVerdict(env: RunEnv, tool: Tool, args: ToolArgs): PolicyVerdict {
  const refused = egressRefusal(env, tool, args);
  if (refused) return { kind: "refuse", message: refused };
  const { policy } = env.config;
  const { touched } = env.snapshot;
  if (policy.trifecta !== "allow" && completesTrifecta(touched, tool)) {
    return policy.trifecta === "refuse"
      ? { kind: "refuse", message: trifectaRefusal(touched, tool) }
      : { kind: "approve", reason: trifectaReason(touched, tool) };
  }
  const reason = autonomyReason(policy.approve, tool.name, tool.flags);
  return reason ? { kind: "approve", reason } : { kind: "run" };
}

/** Why the URL argument of an egress tool is refused, or undefined when the allowlist has it (or the tool has none). */
export function egressRefusal(env: RunEnv, tool: Tool, args: ToolArgs): string | undefined {
  // An egress tool without an allowlist never reaches a run: the agent's configuration refuses it.
  if (tool.egress === undefined || !env.egressCheck) return undefined;
  const verdict = env.egressCheck(args[tool.egress]);
  if (verdict.ok) return undefined;
  return `${tool.name} may not reach the "${tool.egress}" given: ${verdict.reason}. Use a URL the allowlist allows, or tell the user this address cannot be reached.`;
}

/** Counts text a tool read back from memory as untrusted content in the run. */
export function memoryRead(env: RunEnv, toolName: string): void {
  env.snapshot.touched.untrusted_content ??= toolName;
}

/** Records what a call that is about to run touches, so later calls of the run are judged with it. */
export function admitCall(env: RunEnv, tool: Tool): void {
  touch(env.snapshot.touched, tool);
}
