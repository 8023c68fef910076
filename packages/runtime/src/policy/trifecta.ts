import type { Tool } from "../tools/tool-types.js";
import { CAPABILITIES, CAPABILITY_WORDS, type Capability, type Touched } from "./capabilities.js";
import type { PolicyOwner } from "./owner.js";

/** What the policy does with a call that would complete the trifecta: refuse it, ask a person, or let it run. */
export type TrifectaAction = "refuse" | "approve" | "allow";

/** A tool's capabilities: those it declares, plus `egress` when it names a URL argument. */
export function capabilitiesOf(tool: Tool): readonly Capability[] {
  const declared = tool.capabilities ?? [];
  return tool.egress !== undefined && !declared.includes("egress") ? [...declared, "egress"] : declared;
}

/**
 * Whether the run would hold all three capabilities once `tool` has run, for a tool that
 * touches any of them. A run already past the trifecta (a person approved, or
 * `trifecta: "allow"`) has every later such call judged again: each one can leak.
 */
export function completesTrifecta(touched: Touched, tool: Tool): boolean {
  const own = capabilitiesOf(tool);
  return own.length > 0 && CAPABILITIES.every((c) => touched[c] !== undefined || own.includes(c));
}

/** Records what a call that is about to run touches; the first tool to touch a capability is kept. */
export function touch(touched: Touched, tool: Tool): void {
  for (const capability of capabilitiesOf(tool)) touched[capability] ??= tool.name;
}

/**
 * Names each of the three with the tool that brought it, e.g. "private data (read_inbox)";
 * one the run has not touched yet is brought by `tool` (the call completes the three).
 */
function sources(touched: Touched, tool: Tool): string {
  const parts = CAPABILITIES.map((c) => `${CAPABILITY_WORDS[c]} (${touched[c] ?? tool.name})`);
  return `${parts[0]}, ${parts[1]} and ${parts[2]}`;
}

/** Why the policy refuses a call that would complete the trifecta; the model reads it after "Not run: ". */
export function trifectaRefusal(touched: Touched, tool: Tool, owner: PolicyOwner): string {
  return (
    `calling ${tool.name} would give this ${owner.span} ${sources(touched, tool)}. ` +
    `Instructions hidden in untrusted content could then send the private data out, so this ${owner.noun}'s policy refuses the call. ` +
    `Do not retry it: finish the task without ${tool.name}, or tell the user which step they need to do themselves.`
  );
}

/** Why a person is asked to approve a call that would complete the trifecta (shown with the interruption). */
export function trifectaReason(touched: Touched, tool: Tool, owner: PolicyOwner): string {
  return `${tool.name} would give this ${owner.span} ${sources(touched, tool)}: untrusted content could steer private data out.`;
}
