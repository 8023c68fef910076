import type { EgressAllowlist } from "../policy/egress-allowlist.js";
import type { ToolFetch } from "../policy/guarded-fetch.js";

/**
 * `ctx.fetch`: the egress-guarded fetch (policy/guarded-fetch.ts), its code loaded on the first
 * request, so that importing toolwright, and running tools that never send one, loads
 * neither it nor undici.
 */
export function toolFetch(allowlist: EgressAllowlist | undefined, signal: AbortSignal): ToolFetch {
  return async (input, init) => {
    const { guardedFetch } = await import("../policy/guarded-fetch.js");
    return guardedFetch(allowlist, signal)(input, init);
  };
}
