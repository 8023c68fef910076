import { ToolError } from "../errors.js";
import type { ToolFetch } from "../policy/guarded-fetch.js";
import type { ResolvedPolicy } from "../policy/run-policy.js";

/** Where `ctx.fetch` may go: the allowlist of the agent or MCP server the call runs in, and whose it is. */
export type FetchPolicy = Pick<ResolvedPolicy, "egress" | "owner">;

/**
 * `ctx.fetch`: the egress-guarded fetch (policy/guarded-fetch.ts), its code loaded on the first
 * request, so that importing toolwright, and running tools that never send one, loads
 * neither it nor undici. Without an allowlist (none given to the owner, or no owner: a call
 * outside an agent or server) every request is refused, with the fix that fits.
 */
export function toolFetch(policy: FetchPolicy | undefined, signal: AbortSignal): ToolFetch {
  return async (input, init) => {
    const allowlist = policy?.egress;
    if (!allowlist) throw new ToolError(`ctx.fetch refused ${String(input)}: ${noAllowlist(policy)}`);
    const { guardedFetch } = await import("../policy/guarded-fetch.js");
    return guardedFetch(allowlist, signal)(input, init);
  };
}

function noAllowlist(policy: FetchPolicy | undefined): string {
  if (!policy) {
    return (
      "the tool runs outside an agent and an MCP server, so no egress allowlist applies and it may not send requests. " +
      "Run it in an Agent or serveMcp given an egress allowlist, or pass a fetch of your own: invoke(args, { fetch })."
    );
  }
  const { owner } = policy;
  return (
    `this ${owner.noun} has no egress allowlist, so tools may not send requests. ` +
    `The developer can allow hosts with ${owner.egressFix}.`
  );
}
