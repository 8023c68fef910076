import type { Node, Syntax } from "../backend/syntax.js";
import type { DerivedSite } from "../derivation.js";
import type { ToolSite } from "../sites.js";

function isFunction(node: Node, S: Syntax): boolean {
  return S.isFunctionDeclaration(node) || S.isFunctionExpression(node) || S.isArrowFunction(node);
}

/**
 * The nodes of a site that show its tool on hover: the callee (`tool`, `agent.tool`), a
 * function named by reference and an inline function expression's name; the decorator and
 * the decorated method's name; a bare function in a tool list. Never the whole call, so
 * hovering a variable inside an inline function still shows that variable.
 */
function anchors(site: ToolSite, S: Syntax): Node[] {
  const { emission, fn } = site;
  // `tool(function plan_visits(...) {...})`: the inline function's own name.
  const own = S.isFunctionExpression(fn) && fn.name ? [fn.name] : [];
  if (emission.kind === "wrap") return isFunction(emission.element, S) ? own : [emission.element];
  const method = S.isMethodDeclaration(fn) ? [fn.name] : [];
  if (emission.kind === "call") return [emission.decorator.expression, ...method];
  const named = isFunction(fn, S) || S.isMethodDeclaration(fn) ? [] : [fn];
  // `agent.tool(...)`: the method name, not `agent`, whose own hover stays about the agent.
  const callee = emission.call.expression;
  return [S.isPropertyAccessExpression(callee) ? callee.name : callee, ...named, ...own, ...method];
}

/** The derived site whose hover anchors contain `position`, and the anchor's node. */
export function siteAt(
  sites: readonly DerivedSite[],
  position: number,
  syntax: Syntax,
): { derived: DerivedSite; anchor: Node } | undefined {
  for (const derived of sites) {
    for (const anchor of anchors(derived.site, syntax)) {
      if (position >= anchor.getStart() && position < anchor.getEnd()) return { derived, anchor };
    }
  }
  return undefined;
}
