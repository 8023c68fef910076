import type { Tool } from "../tools/tool-types.js";
import { type ApprovalTier, isApprovalTier } from "./autonomy.js";
import { CAPABILITIES, isCapability } from "./capabilities.js";
import { type EgressAllowlist, type EgressOptions, parseAllowlist } from "./egress-allowlist.js";
import type { PolicyOwner } from "./owner.js";
import type { TrifectaAction } from "./trifecta.js";

/** The security options of an agent (`new Agent()`) or an MCP server (`serveMcp`, `createMcpServer`). */
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
  /** Undefined when the owner has no allowlist: `ctx.fetch` then refuses every request. */
  readonly egress: EgressAllowlist | undefined;
  /** Whose policy it is, for the words of refusals. */
  readonly owner: PolicyOwner;
}

const ACTIONS: readonly TrifectaAction[] = ["refuse", "approve", "allow"];

/** Checks an owner's policy options against its tools; every mistake is the owner's config error, naming the fix. */
export function resolvePolicy(owner: PolicyOwner, options: PolicyOptions, tools: Iterable<Tool>): ResolvedPolicy {
  const where = owner.label;
  const approve = options.approve ?? "never";
  if (!isApprovalTier(approve)) {
    throw owner.configError(
      `${where}: approve must be "never", "destructive", "side-effects" or "always", got ${JSON.stringify(approve)}.`,
    );
  }
  const trifecta = options.trifecta ?? "refuse";
  if (!ACTIONS.includes(trifecta)) {
    throw owner.configError(
      `${where}: trifecta must be "refuse", "approve" or "allow", got ${JSON.stringify(trifecta)}.`,
    );
  }
  const egress = options.egress === undefined ? undefined : parseAllowlist(owner, options.egress);
  const policy: ResolvedPolicy = { approve, trifecta, egress, owner };
  for (const tool of tools) checkToolPolicy(tool, policy);
  return policy;
}

/** Checks one tool against its owner's policy: its capabilities, and an allowlist for a URL-taking tool. */
export function checkToolPolicy(tool: Tool, policy: ResolvedPolicy): void {
  const { owner } = policy;
  const where = owner.label;
  for (const name of tool.capabilities ?? []) {
    if (!isCapability(name)) {
      throw owner.configError(
        `${where}: tool "${tool.name}" declares the unknown capability ${JSON.stringify(name)}; known: ${CAPABILITIES.join(", ")}.`,
      );
    }
  }
  if (tool.egress === undefined) return;
  const properties = (tool.parameters.properties ?? {}) as Record<string, unknown>;
  if (!Object.hasOwn(properties, tool.egress)) {
    throw owner.configError(
      `${where}: tool "${tool.name}" names "${tool.egress}" as its URL argument (egress), but has no such parameter; ` +
        `it has: ${Object.keys(properties).join(", ") || "none"}.`,
    );
  }
  if (policy.egress === undefined) {
    throw owner.configError(
      `${where}: tool "${tool.name}" sends requests to its "${tool.egress}" argument, but the ${owner.noun} has no egress allowlist. ` +
        `Fix: list the hosts it may reach, as in ${owner.egressFix}.`,
    );
  }
}
