import type ts from "typescript";
import { TS } from "./typescript-host.js";

/** The result of reading an expression as a JSON literal. */
export type Literal = { readonly ok: true; readonly value: unknown } | { readonly ok: false };

const NOT_LITERAL: Literal = { ok: false };

/**
 * Reads `expression` as JSON when it is written as a literal: strings, numbers (also
 * negative), booleans, `null`, and arrays and objects of those. Anything else is not a literal.
 */
export function literalOf(expression: ts.Expression): Literal {
  if (TS.isStringLiteral(expression) || TS.isNoSubstitutionTemplateLiteral(expression)) {
    return { ok: true, value: expression.text };
  }
  if (TS.isNumericLiteral(expression)) return { ok: true, value: Number(expression.text) };
  if (TS.isPrefixUnaryExpression(expression) && expression.operator === TS.SyntaxKind.MinusToken) {
    const inner = literalOf(expression.operand);
    return inner.ok && typeof inner.value === "number" ? { ok: true, value: -inner.value } : NOT_LITERAL;
  }
  if (expression.kind === TS.SyntaxKind.TrueKeyword) return { ok: true, value: true };
  if (expression.kind === TS.SyntaxKind.FalseKeyword) return { ok: true, value: false };
  if (expression.kind === TS.SyntaxKind.NullKeyword) return { ok: true, value: null };
  if (TS.isParenthesizedExpression(expression) || TS.isAsExpression(expression))
    return literalOf(expression.expression);
  if (TS.isArrayLiteralExpression(expression)) {
    const items = expression.elements.map(literalOf);
    return items.every((i) => i.ok) ? { ok: true, value: items.map((i) => (i.ok ? i.value : null)) } : NOT_LITERAL;
  }
  if (TS.isObjectLiteralExpression(expression)) {
    const out: Record<string, unknown> = {};
    for (const property of expression.properties) {
      if (!TS.isPropertyAssignment(property) || TS.isComputedPropertyName(property.name)) return NOT_LITERAL;
      const value = literalOf(property.initializer);
      if (!value.ok) return NOT_LITERAL;
      out[property.name.text] = value.value;
    }
    return { ok: true, value: out };
  }
  return NOT_LITERAL;
}

/** The literal value of property `key` in an object literal, when it is written as one. */
export function literalProperty(object: ts.Expression | undefined, key: string): Literal {
  if (!object || !TS.isObjectLiteralExpression(object)) return NOT_LITERAL;
  const property = object.properties.find(
    (p) => TS.isPropertyAssignment(p) && !TS.isComputedPropertyName(p.name) && p.name.text === key,
  );
  return property && TS.isPropertyAssignment(property) ? literalOf(property.initializer) : NOT_LITERAL;
}
