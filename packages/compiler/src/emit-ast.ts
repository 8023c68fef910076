import ts from "typescript";
import type { DerivedSite } from "./derive-specs.js";

function keyOf(key: string, factory: ts.NodeFactory): ts.PropertyName {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? factory.createIdentifier(key) : factory.createStringLiteral(key);
}

/** A JSON value as an expression built with the emitting compiler's own factory. */
export function jsonExpression(value: unknown, factory: ts.NodeFactory): ts.Expression {
  if (value === null) return factory.createNull();
  if (typeof value === "string") return factory.createStringLiteral(value);
  if (typeof value === "boolean") return value ? factory.createTrue() : factory.createFalse();
  if (typeof value === "number") {
    const literal = factory.createNumericLiteral(Math.abs(value));
    return value < 0 ? factory.createPrefixUnaryExpression(ts.SyntaxKind.MinusToken, literal) : literal;
  }
  if (Array.isArray(value)) return factory.createArrayLiteralExpression(value.map((v) => jsonExpression(v, factory)));
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return factory.createObjectLiteralExpression(
      entries.map(([k, v]) => factory.createPropertyAssignment(keyOf(k, factory), jsonExpression(v, factory))),
    );
  }
  return factory.createIdentifier("undefined");
}

/**
 * A `before` transformer that writes each derived site's spec: it appends arguments to
 * tool calls, turns bare `@tool` into `@tool(undefined, SPEC)` and wraps list elements.
 */
export function specWriter(
  sites: readonly DerivedSite[],
  context: ts.TransformationContext,
  host: typeof ts = ts,
): (file: ts.SourceFile) => ts.SourceFile {
  const { factory } = context;
  const byNode = new Map<ts.Node, DerivedSite>();
  for (const derived of sites) {
    const e = derived.site.emission;
    byNode.set(e.kind === "append" ? e.call : e.kind === "call" ? e.decorator : e.element, derived);
  }
  const visit = (node: ts.Node): ts.Node => {
    const derived = byNode.get(node);
    // Visit with the emitting compiler's own instance (tspc runs a patched copy of tsc.js).
    const visited = host.visitEachChild(node, visit, context);
    if (!derived) return visited;
    const spec = jsonExpression(derived.spec, factory);
    const emission = derived.site.emission;
    if (emission.kind === "append" && host.isCallExpression(visited)) {
      const padding = Array.from({ length: emission.padding }, () => factory.createIdentifier("undefined"));
      return factory.updateCallExpression(visited, visited.expression, visited.typeArguments, [
        ...visited.arguments,
        ...padding,
        spec,
      ]);
    }
    if (emission.kind === "call" && host.isDecorator(visited)) {
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
  return (file) => (byNode.size === 0 ? file : (host.visitEachChild(file, visit, context) as ts.SourceFile));
}
