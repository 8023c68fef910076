import type { Tool, ToolArgs } from "../tools/tool-types.js";
import type { EgressVerdict } from "./egress-url.js";

/** An egress allowlist as a check of one URL: `checkUrl` bound to the list. */
export type EgressCheck = (url: unknown) => EgressVerdict;

/**
 * Why the URL argument of an egress tool (`@egress url`) is refused, or undefined when the
 * allowlist has it or the tool names no URL argument. Without a check nothing is refused:
 * an egress tool never gets that far without an allowlist, since its owner's configuration
 * refuses it.
 */
export function egressRefusal(check: EgressCheck | undefined, tool: Tool, args: ToolArgs): string | undefined {
  if (tool.egress === undefined || !check) return undefined;
  const verdict = check(args[tool.egress]);
  if (verdict.ok) return undefined;
  return `${tool.name} may not reach the "${tool.egress}" given: ${verdict.reason}. Use a URL the allowlist allows, or tell the user this address cannot be reached.`;
}
