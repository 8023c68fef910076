import type ts from "typescript";
import type { DerivedSite } from "../derive-specs.js";
import type { ToolSite } from "../sites.js";
import { TS } from "../typescript-host.js";

/**
 * The nodes of a site that show its tool on hover: the callee (`tool`, `agent.tool`) and a
 * function named by reference; the decorator and the decorated method's name; a bare
 * function in a tool list. Never the whole call, so hovering a variable inside an inline
 * function still shows that variable.
 */
function anchors(site: ToolSite): ts.Node[] {
  // On this path (tsserver) the sites' nodes are TypeScript 5's own.
  const emission = site.emission as unknown as
    | { kind: "append"; call: ts.CallExpression }
    | { kind: "call"; decorator: ts.Decorator }
    | { kind: "wrap"; element: ts.Expression };
  const fnNode = site.fn as unknown as ts.Node;
  if (emission.kind === "wrap") return TS.isFunctionLike(emission.element) ? [] : [emission.element];
  const method = TS.isMethodDeclaration(fnNode) ? [fnNode.name] : [];
  if (emission.kind === "call") return [emission.decorator.expression, ...method];
  const fn = TS.isFunctionLike(fnNode) || TS.isMethodDeclaration(fnNode) ? [] : [fnNode];
  // `agent.tool(...)`: the method name, not `agent`, whose own hover stays about the agent.
  const callee = emission.call.expression;
  return [TS.isPropertyAccessExpression(callee) ? callee.name : callee, ...fn, ...method];
}

/** The derived site whose hover anchors contain `position`, and the anchor's node. */
export function siteAt(
  sites: readonly DerivedSite[],
  position: number,
): { derived: DerivedSite; anchor: ts.Node } | undefined {
  for (const derived of sites) {
    for (const anchor of anchors(derived.site)) {
      if (position >= anchor.getStart() && position < anchor.getEnd()) return { derived, anchor };
    }
  }
  return undefined;
}
