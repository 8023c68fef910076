import ts from "typescript";

/** The result of reading an expression as a JSON literal. */
export type Literal = { readonly ok: true; readonly value: unknown } | { readonly ok: false };

const NOT_LITERAL: Literal = { ok: false };

/**
 * Reads `expression` as JSON when it is written as a literal: strings, numbers (also
 * negative), booleans, `null`, and arrays and objects of those. Anything else is not a literal.
 */
export function literalOf(expression: ts.Expression): Literal {
  if (ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression)) {
    return { ok: true, value: expression.text };
  }
  if (ts.isNumericLiteral(expression)) return { ok: true, value: Number(expression.text) };
  if (ts.isPrefixUnaryExpression(expression) && expression.operator === ts.SyntaxKind.MinusToken) {
    const inner = literalOf(expression.operand);
    return inner.ok && typeof inner.value === "number" ? { ok: true, value: -inner.value } : NOT_LITERAL;
  }
  if (expression.kind === ts.SyntaxKind.TrueKeyword) return { ok: true, value: true };
  if (expression.kind === ts.SyntaxKind.FalseKeyword) return { ok: true, value: false };
  if (expression.kind === ts.SyntaxKind.NullKeyword) return { ok: true, value: null };
  if (ts.isParenthesizedExpression(expression) || ts.isAsExpression(expression))
    return literalOf(expression.expression);
  if (ts.isArrayLiteralExpression(expression)) {
    const items = expression.elements.map(literalOf);
    return items.every((i) => i.ok) ? { ok: true, value: items.map((i) => (i.ok ? i.value : null)) } : NOT_LITERAL;
  }
  if (ts.isObjectLiteralExpression(expression)) {
    const out: Record<string, unknown> = {};
    for (const property of expression.properties) {
      if (!ts.isPropertyAssignment(property) || ts.isComputedPropertyName(property.name)) return NOT_LITERAL;
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
  if (!object || !ts.isObjectLiteralExpression(object)) return NOT_LITERAL;
  const property = object.properties.find(
    (p) => ts.isPropertyAssignment(p) && !ts.isComputedPropertyName(p.name) && p.name.text === key,
  );
  return property && ts.isPropertyAssignment(property) ? literalOf(property.initializer) : NOT_LITERAL;
}
