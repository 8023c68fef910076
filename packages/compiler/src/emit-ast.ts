import type { SchemaSpec, ToolSpec } from "toolwright";
import type ts from "typescript";
import type { EmittedSite } from "./derive-specs.js";
import { specSource } from "./spec-source.js";
import { TS } from "./typescript-host.js";

/**
 * The spec as one synthesized node whose text is its source (JSON and generated validators,
 * see {@link specSource}). The printer writes an identifier's text verbatim, and building
 * thousands of literal nodes per build was the largest cost of the transformer (see
 * scripts/bench/build.mjs).
 */
export function specExpression(spec: ToolSpec | SchemaSpec, factory: ts.NodeFactory): ts.Expression {
  return factory.createIdentifier(specSource(spec));
}

/**
 * A `before` transformer that writes each derived site's spec: it appends arguments to
 * tool calls, turns bare `@tool` into `@tool(undefined, SPEC)` and wraps list elements.
 */
export function specWriter(
  sites: readonly EmittedSite[],
  context: ts.TransformationContext,
): (file: ts.SourceFile) => ts.SourceFile {
  const { factory } = context;
  // The sites' nodes are the Program's own (TypeScript 5 nodes seen through the backend's syntax).
  const byNode = new Map<unknown, EmittedSite>();
  for (const derived of sites) {
    const e = derived.site.emission;
    byNode.set(e.kind === "append" ? e.call : e.kind === "call" ? e.decorator : e.element, derived);
  }
  const visit = (node: ts.Node): ts.Node => {
    const derived = byNode.get(node);
    const visited = TS.visitEachChild(node, visit, context);
    if (!derived) return visited;
    const spec =
      "$toolwrightRejected" in derived.spec
        ? factory.createIdentifier(JSON.stringify(derived.spec))
        : specExpression(derived.spec, factory);
    const emission = derived.site.emission;
    if (emission.kind === "append" && TS.isCallExpression(visited)) {
      const padding = Array.from({ length: emission.padding }, () => factory.createIdentifier("undefined"));
      return factory.updateCallExpression(visited, visited.expression, visited.typeArguments, [
        ...visited.arguments,
        ...padding,
        spec,
      ]);
    }
    if (emission.kind === "call" && TS.isDecorator(visited)) {
      const call = factory.createCallExpression(visited.expression, undefined, [
        factory.createIdentifier("undefined"),
        spec,
      ]);
      return factory.updateDecorator(visited, call);
    }
    return factory.createObjectLiteralExpression([
      factory.createPropertyAssignment("fn", visited as ts.Expression),
      factory.createPropertyAssignment("spec", spec),
    ]);
  };
  return (file) => (byNode.size === 0 ? file : (TS.visitEachChild(file, visit, context) as ts.SourceFile));
}
