import { McpServerConfigError } from "../errors.js";
import type { EgressCheck } from "../policy/egress-argument.js";
import { checkUrl } from "../policy/egress-url.js";
import type { PolicyOwner } from "../policy/owner.js";
import { type PolicyOptions, type ResolvedPolicy, resolvePolicy } from "../policy/run-policy.js";
import type { Tool } from "../tools/tool-types.js";

/** An MCP server, as the policy's messages name it, with the fixes its developer can apply. */
export function mcpServerOwner(name: string): PolicyOwner {
  return {
    label: `MCP server "${name}"`,
    noun: "MCP server",
    span: "session",
    egressFix:
      'serveMcp(tools, { egress: { allow: ["api.example.com"] } }), or toolwright mcp --egress api.example.com',
    configError: (message) => new McpServerConfigError(message),
  };
}

/** A server's policy and its URL check, made once for every session of the server. */
export interface ServedPolicy {
  readonly policy: ResolvedPolicy;
  readonly egressCheck: EgressCheck | undefined;
}

/**
 * Checks a server's policy options against its tools, as `new Agent()` does: every
 * mistake is a {@link McpServerConfigError} naming the server and the fix.
 */
export function resolveServedPolicy(name: string, options: PolicyOptions, tools: Iterable<Tool>): ServedPolicy {
  const policy = resolvePolicy(mcpServerOwner(name), options, tools);
  const allowlist = policy.egress;
  return { policy, egressCheck: allowlist ? (url) => checkUrl(url, allowlist) : undefined };
}
