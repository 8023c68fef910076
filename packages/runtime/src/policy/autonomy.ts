import type { ToolFlags } from "../tools/spec.js";
import type { PolicyOwner } from "./owner.js";

/**
 * Which calls wait for a person, by the tool's flags, on top of each tool's own
 * `needsApproval` (a tool cannot opt out of its agent's or MCP server's tier):
 * - `never` (the default): only tools that ask for approval themselves;
 * - `destructive`: also every tool flagged `destructive`;
 * - `side-effects`: also every tool not flagged `readOnly` (a tool with no flags counts as having side effects);
 * - `always`: every call.
 */
export type ApprovalTier = "never" | "destructive" | "side-effects" | "always";

const TIERS: readonly ApprovalTier[] = ["never", "destructive", "side-effects", "always"];

/** True when `value` is one of the four tiers. */
export function isApprovalTier(value: unknown): value is ApprovalTier {
  return TIERS.includes(value as ApprovalTier);
}

/**
 * Why the tier sends a call of a tool with these flags to a person, or undefined when it
 * does not, in the words of the tier's owner (an agent, an MCP server).
 */
export function autonomyReason(
  tier: ApprovalTier,
  toolName: string,
  flags: ToolFlags,
  owner: PolicyOwner,
): string | undefined {
  switch (tier) {
    case "never":
      return undefined;
    case "destructive":
      return flags.destructive === true
        ? `${toolName} is destructive and this ${owner.noun} approves destructive tools.`
        : undefined;
    case "side-effects":
      return flags.readOnly === true
        ? undefined
        : `${toolName} is not marked readOnly and this ${owner.noun} approves every tool with side effects.`;
    case "always":
      return `this ${owner.noun} approves every call.`;
  }
}
