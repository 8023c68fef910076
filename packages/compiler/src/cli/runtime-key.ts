import type ts from "typescript";
import type { ToolSite } from "../sites.js";
import { TS } from "../typescript-host.js";

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
    TS.isParenthesizedExpression(node) ||
    TS.isAsExpression(node) ||
    TS.isSatisfiesExpression(node) ||
    TS.isNonNullExpression(node) ||
    TS.isExpressionWithTypeArguments(node)
  ) {
    node = node.expression;
  }
  return node;
}

/** The `name` JavaScript gives a function defined by this declaration, if it can be known statically. */
function nameOfDeclaration(declaration: ts.Declaration): string | undefined {
  if (TS.isFunctionDeclaration(declaration)) {
    return declaration.name?.text ?? "default";
  }
  if (
    TS.isMethodDeclaration(declaration) ||
    TS.isPropertyAssignment(declaration) ||
    TS.isPropertyDeclaration(declaration)
  ) {
    if (TS.isMethodDeclaration(declaration))
      return TS.isIdentifier(declaration.name) ? declaration.name.text : undefined;
    const init = declaration.initializer && unwrap(declaration.initializer);
    if (!init || !(TS.isArrowFunction(init) || TS.isFunctionExpression(init))) return undefined;
    if (TS.isFunctionExpression(init) && init.name) return init.name.text;
    return TS.isIdentifier(declaration.name) || TS.isStringLiteral(declaration.name)
      ? declaration.name.text
      : undefined;
  }
  if (TS.isVariableDeclaration(declaration) && TS.isIdentifier(declaration.name) && declaration.initializer) {
    const init = unwrap(declaration.initializer);
    if (TS.isFunctionExpression(init) && init.name) return init.name.text;
    if (TS.isArrowFunction(init) || TS.isFunctionExpression(init)) return declaration.name.text;
  }
  return undefined;
}

/** The `fn.name` the runtime will see for the site's function, or undefined when it is not static. */
function functionName(fn: ts.Expression | ts.MethodDeclaration, checker: ts.TypeChecker): string | undefined {
  if (TS.isMethodDeclaration(fn)) return TS.isIdentifier(fn.name) ? fn.name.text : undefined;
  const node = unwrap(fn);
  // An anonymous function written inline as an argument gets no name from JavaScript.
  if (TS.isArrowFunction(node)) return "";
  if (TS.isFunctionExpression(node)) return node.name?.text ?? "";
  if (!TS.isIdentifier(node) && !TS.isPropertyAccessExpression(node)) return undefined;
  let symbol = checker.getSymbolAtLocation(node);
  if (symbol && symbol.flags & TS.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
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
  if (!TS.isObjectLiteralExpression(node)) return TS.isIdentifier(node) && node.text === "undefined" ? undefined : null;
  for (const property of node.properties) {
    if (TS.isSpreadAssignment(property)) return null;
    if (property.name?.getText() !== "name") continue;
    if (!TS.isPropertyAssignment(property)) return null;
    const value = unwrap(property.initializer);
    if (TS.isStringLiteralLike(value)) return value.text;
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
