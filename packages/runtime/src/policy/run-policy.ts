import { AgentConfigError } from "../errors.js";
import type { Tool } from "../tools/tool-types.js";
import { type ApprovalTier, isApprovalTier } from "./autonomy.js";
import { CAPABILITIES, isCapability } from "./capabilities.js";
import { type EgressAllowlist, type EgressOptions, parseAllowlist } from "./egress-allowlist.js";
import type { TrifectaAction } from "./trifecta.js";

/** The security options of an agent, as `new Agent()` takes them. */
export interface PolicyOptions {
  /** Which calls wait for a person by their flags (default `"never"`: only tools that ask themselves). */
  readonly approve?: ApprovalTier;
  /** What happens to a call that would complete the lethal trifecta in one run (default `"refuse"`). */
  readonly trifecta?: TrifectaAction;
  /** Where tools that name a URL argument (`@egress url`) and `ctx.fetch` may go. */
  readonly egress?: EgressOptions;
}

/** {@link PolicyOptions} checked, with defaults filled in: what the run loop reads. */
export interface ResolvedPolicy {
  readonly approve: ApprovalTier;
  readonly trifecta: TrifectaAction;
  /** Undefined when the agent has no allowlist: `ctx.fetch` then refuses every request. */
  readonly egress: EgressAllowlist | undefined;
}

const ACTIONS: readonly TrifectaAction[] = ["refuse", "approve", "allow"];

/** Checks an agent's policy options against its tools; every mistake is an {@link AgentConfigError} naming the fix. */
export function resolvePolicy(agentName: string, options: PolicyOptions, tools: Iterable<Tool>): ResolvedPolicy {
  const where = `agent "${agentName}"`;
  const approve = options.approve ?? "never";
  if (!isApprovalTier(approve)) {
    throw new AgentConfigError(
      `${where}: approve must be "never", "destructive", "side-effects" or "always", got ${JSON.stringify(approve)}.`,
    );
  }
  const trifecta = options.trifecta ?? "refuse";
  if (!ACTIONS.includes(trifecta)) {
    throw new AgentConfigError(
      `${where}: trifecta must be "refuse", "approve" or "allow", got ${JSON.stringify(trifecta)}.`,
    );
  }
  const egress = options.egress === undefined ? undefined : parseAllowlist(agentName, options.egress);
  const policy: ResolvedPolicy = { approve, trifecta, egress };
  for (const tool of tools) checkToolPolicy(agentName, tool, policy);
  return policy;
}

/** Checks one tool against an agent's policy: its capabilities, and an allowlist for a URL-taking tool. */
export function checkToolPolicy(agentName: string, tool: Tool, policy: ResolvedPolicy): void {
  const where = `agent "${agentName}"`;
  for (const name of tool.capabilities ?? []) {
    if (!isCapability(name)) {
      throw new AgentConfigError(
        `${where}: tool "${tool.name}" declares the unknown capability ${JSON.stringify(name)}; known: ${CAPABILITIES.join(", ")}.`,
      );
    }
  }
  if (tool.egress === undefined) return;
  const properties = (tool.parameters.properties ?? {}) as Record<string, unknown>;
  if (!Object.hasOwn(properties, tool.egress)) {
    throw new AgentConfigError(
      `${where}: tool "${tool.name}" names "${tool.egress}" as its URL argument (egress), but has no such parameter; ` +
        `it has: ${Object.keys(properties).join(", ") || "none"}.`,
    );
  }
  if (policy.egress === undefined) {
    throw new AgentConfigError(
      `${where}: tool "${tool.name}" sends requests to its "${tool.egress}" argument, but the agent has no egress allowlist. ` +
        'Fix: pass egress: { allow: ["api.example.com"] } to new Agent().',
    );
  }
}
