import type { Expression, Syntax } from "./backend/syntax.js";

/** The result of reading an expression as a JSON literal. */
export type Literal = { readonly ok: true; readonly value: unknown } | { readonly ok: false };

const NOT_LITERAL: Literal = { ok: false };

/**
 * Reads `expression` as JSON when it is written as a literal: strings, numbers (also
 * negative), booleans, `null`, and arrays and objects of those. Anything else is not a literal.
 */
export function literalOf(expression: Expression, syntax: Syntax): Literal {
  const S = syntax;
  if (S.isStringLiteral(expression) || S.isNoSubstitutionTemplateLiteral(expression)) {
    return { ok: true, value: expression.text };
  }
  if (S.isNumericLiteral(expression)) return { ok: true, value: Number(expression.text) };
  if (S.isNegation(expression)) {
    const inner = literalOf(expression.operand, S);
    return inner.ok && typeof inner.value === "number" ? { ok: true, value: -inner.value } : NOT_LITERAL;
  }
  if (S.isTrueKeyword(expression)) return { ok: true, value: true };
  if (S.isFalseKeyword(expression)) return { ok: true, value: false };
  if (S.isNullKeyword(expression)) return { ok: true, value: null };
  if (S.isParenthesizedExpression(expression) || S.isAsExpression(expression)) {
    return literalOf(expression.expression, S);
  }
  if (S.isArrayLiteralExpression(expression)) {
    const items = expression.elements.map((e) => literalOf(e, S));
    return items.every((i) => i.ok) ? { ok: true, value: items.map((i) => (i.ok ? i.value : null)) } : NOT_LITERAL;
  }
  if (S.isObjectLiteralExpression(expression)) {
    const out: Record<string, unknown> = {};
    for (const property of expression.properties) {
      if (!S.isPropertyAssignment(property) || S.isComputedPropertyName(property.name)) return NOT_LITERAL;
      const value = literalOf(property.initializer, S);
      if (!value.ok) return NOT_LITERAL;
      out[propertyNameText(property.name)] = value.value;
    }
    return { ok: true, value: out };
  }
  return NOT_LITERAL;
}

/** The text of a non-computed property name (an identifier, string or number as written). */
function propertyNameText(name: Expression): string {
  return (name as { readonly text?: string }).text ?? name.getText();
}

/** The literal value of property `key` in an object literal, when it is written as one. */
export function literalProperty(object: Expression | undefined, key: string, syntax: Syntax): Literal {
  if (!object || !syntax.isObjectLiteralExpression(object)) return NOT_LITERAL;
  const property = object.properties.find(
    (p) => syntax.isPropertyAssignment(p) && !syntax.isComputedPropertyName(p.name) && propertyNameText(p.name) === key,
  );
  return property && syntax.isPropertyAssignment(property) ? literalOf(property.initializer, syntax) : NOT_LITERAL;
}
