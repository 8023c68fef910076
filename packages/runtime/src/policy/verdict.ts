import type { Tool, ToolArgs } from "../tools/tool-types.js";
import { autonomyReason } from "./autonomy.js";
import type { Touched } from "./capabilities.js";
import { type EgressCheck, egressRefusal } from "./egress-argument.js";
import type { ResolvedPolicy } from "./run-policy.js";
import { completesTrifecta, trifectaReason, trifectaRefusal } from "./trifecta.js";

/** What a policy says about one valid call, before the tool's own approval gate. */
export type PolicyVerdict =
  | { readonly kind: "run" }
  /** The call does not run; the model reads `message` (after "Not run: ") as a `rejected` result. */
  | { readonly kind: "refuse"; readonly message: string }
  /** A person decides; `reason` is shown with the question. */
  | { readonly kind: "approve"; readonly reason: string };

/** What a call is judged against: the owner's policy, what its run or session has touched, and its URL check. */
export interface PolicyState {
  readonly policy: ResolvedPolicy;
  readonly touched: Touched;
  readonly egressCheck: EgressCheck | undefined;
}

/**
 * The policy on a new call: the egress allowlist first (no approval can widen it), then
 * the trifecta, then the autonomy tier. An agent's run and an MCP server's session judge
 * their calls alike.
 */
export function policyVerdict(state: PolicyState, tool: Tool, args: ToolArgs): PolicyVerdict {
  const refused = egressRefusal(state.egressCheck, tool, args);
  if (refused) return { kind: "refuse", message: refused };
  const { policy, touched } = state;
  if (policy.trifecta !== "allow" && completesTrifecta(touched, tool)) {
    return policy.trifecta === "refuse"
      ? { kind: "refuse", message: trifectaRefusal(touched, tool, policy.owner) }
      : { kind: "approve", reason: trifectaReason(touched, tool, policy.owner) };
  }
  const reason = autonomyReason(policy.approve, tool.name, tool.flags, policy.owner);
  return reason ? { kind: "approve", reason } : { kind: "run" };
}
