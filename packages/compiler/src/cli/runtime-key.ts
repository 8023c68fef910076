import ts from "typescript";
import type { ToolSite } from "../sites.js";

/**
 * What `tool(fn, options)` can see at run time to find a generated spec: `fn.name`
 * and the `name` option. `problem` says why a site cannot be keyed.
 */
export type RuntimeKey =
  | { readonly fn: string; readonly name?: string; readonly problem?: undefined }
  | { readonly problem: string };

function unwrap(expression: ts.Expression): ts.Expression {
  let node = expression;
  // `f<number>` (an instantiation expression), `f!`, `(f)`, `f as T` are all `f` at run time.
  while (
    ts.isParenthesizedExpression(node) ||
    ts.isAsExpression(node) ||
    ts.isSatisfiesExpression(node) ||
    ts.isNonNullExpression(node) ||
    ts.isExpressionWithTypeArguments(node)
  ) {
    node = node.expression;
  }
  return node;
}

/** The `name` JavaScript gives a function defined by this declaration, if it can be known statically. */
function nameOfDeclaration(declaration: ts.Declaration): string | undefined {
  if (ts.isFunctionDeclaration(declaration)) {
    return declaration.name?.text ?? "default";
  }
  if (
    ts.isMethodDeclaration(declaration) ||
    ts.isPropertyAssignment(declaration) ||
    ts.isPropertyDeclaration(declaration)
  ) {
    if (ts.isMethodDeclaration(declaration))
      return ts.isIdentifier(declaration.name) ? declaration.name.text : undefined;
    const init = declaration.initializer && unwrap(declaration.initializer);
    if (!init || !(ts.isArrowFunction(init) || ts.isFunctionExpression(init))) return undefined;
    if (ts.isFunctionExpression(init) && init.name) return init.name.text;
    return ts.isIdentifier(declaration.name) || ts.isStringLiteral(declaration.name)
      ? declaration.name.text
      : undefined;
  }
  if (ts.isVariableDeclaration(declaration) && ts.isIdentifier(declaration.name) && declaration.initializer) {
    const init = unwrap(declaration.initializer);
    if (ts.isFunctionExpression(init) && init.name) return init.name.text;
    if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) return declaration.name.text;
  }
  return undefined;
}

/** The `fn.name` the runtime will see for the site's function, or undefined when it is not static. */
function functionName(fn: ts.Expression | ts.MethodDeclaration, checker: ts.TypeChecker): string | undefined {
  if (ts.isMethodDeclaration(fn)) return ts.isIdentifier(fn.name) ? fn.name.text : undefined;
  const node = unwrap(fn);
  // An anonymous function written inline as an argument gets no name from JavaScript.
  if (ts.isArrowFunction(node)) return "";
  if (ts.isFunctionExpression(node)) return node.name?.text ?? "";
  if (!ts.isIdentifier(node) && !ts.isPropertyAccessExpression(node)) return undefined;
  let symbol = checker.getSymbolAtLocation(node);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const declaration = symbol?.valueDeclaration ?? symbol?.declarations?.[0];
  return declaration ? nameOfDeclaration(declaration) : undefined;
}

/**
 * The `name` option of the site when its value is known at build time (a string literal,
 * or anything whose type is one string literal, like a `const`), `undefined` without one,
 * or `null` when it is not known.
 */
function optionName(options: ts.Expression | undefined, checker: ts.TypeChecker): string | undefined | null {
  if (!options) return undefined;
  const node = unwrap(options);
  if (!ts.isObjectLiteralExpression(node)) return ts.isIdentifier(node) && node.text === "undefined" ? undefined : null;
  for (const property of node.properties) {
    if (ts.isSpreadAssignment(property)) return null;
    if (property.name?.getText() !== "name") continue;
    if (!ts.isPropertyAssignment(property)) return null;
    const value = unwrap(property.initializer);
    if (ts.isStringLiteralLike(value)) return value.text;
    const type = checker.getTypeAtLocation(value);
    return type.isStringLiteral() ? type.value : null;
  }
  return undefined;
}

/** Computes the run-time key of a tool site for `toolwright gen`. */
export function runtimeKey(site: ToolSite, checker: ts.TypeChecker): RuntimeKey {
  const fn = functionName(site.fn, checker);
  if (fn === undefined) {
    return {
      problem:
        "toolwright gen cannot tell this function's run-time name (fn.name); pass a function declared by name " +
        "(function f() {} or const f = () => {}) to tool().",
    };
  }
  const name = optionName(site.options, checker);
  if (name === null) {
    return { problem: "toolwright gen needs the 'name' option of tool() to be a string literal (or absent)." };
  }
  return name === undefined ? { fn } : { fn, name };
}
