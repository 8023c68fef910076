import { type Backend, SymbolFlag, TypeFlag } from "../backend/backend.js";
import type { Expression, Node } from "../backend/syntax.js";
import type { SchemaSite, ToolSite } from "../sites.js";

/**
 * What `tool(fn, options)` can see at run time to find a generated spec: `fn.name`
 * and the `name` option. `problem` says why a site cannot be keyed.
 */
export type RuntimeKey =
  | { readonly fn: string; readonly name?: string; readonly problem?: undefined }
  | { readonly problem: string };

function unwrap(expression: Expression, backend: Backend): Expression {
  const S = backend.syntax;
  let node = expression;
  // `f<number>` (an instantiation expression), `f!`, `(f)`, `f as T` are all `f` at run time.
  while (
    S.isParenthesizedExpression(node) ||
    S.isAsExpression(node) ||
    S.isSatisfiesExpression(node) ||
    S.isNonNullExpression(node) ||
    S.isExpressionWithTypeArguments(node)
  ) {
    node = node.expression;
  }
  return node;
}

/** The text of a name node (identifier, string or number literal), or undefined for a computed one. */
function nameText(name: Node | undefined, backend: Backend): string | undefined {
  const S = backend.syntax;
  return name && (S.isIdentifier(name) || S.isStringLiteral(name)) ? name.text : undefined;
}

/** The `name` JavaScript gives a function defined by this declaration, if it can be known statically. */
function nameOfDeclaration(declaration: Node, backend: Backend): string | undefined {
  const S = backend.syntax;
  if (S.isFunctionDeclaration(declaration)) {
    return (declaration.name && nameText(declaration.name, backend)) ?? "default";
  }
  if (S.isMethodDeclaration(declaration)) return S.isIdentifier(declaration.name) ? declaration.name.text : undefined;
  if (S.isPropertyAssignment(declaration) || S.isPropertyDeclaration(declaration)) {
    const init = declaration.initializer && unwrap(declaration.initializer, backend);
    if (!init || !(S.isArrowFunction(init) || S.isFunctionExpression(init))) return undefined;
    if (S.isFunctionExpression(init) && init.name) return nameText(init.name, backend);
    return nameText(declaration.name, backend);
  }
  if (S.isVariableDeclaration(declaration) && S.isIdentifier(declaration.name) && declaration.initializer) {
    const init = unwrap(declaration.initializer, backend);
    if (S.isFunctionExpression(init) && init.name) return nameText(init.name, backend);
    if (S.isArrowFunction(init) || S.isFunctionExpression(init)) return declaration.name.text;
  }
  return undefined;
}

/** The name or property access a site's function is passed as (`tool(getWeather)`), whose symbol tells its `fn.name`. */
function referenceOf(fn: Expression, backend: Backend): Expression | undefined {
  const S = backend.syntax;
  if (S.isMethodDeclaration(fn)) return undefined;
  const node = unwrap(fn, backend);
  return S.isIdentifier(node) || S.isPropertyAccessExpression(node) ? node : undefined;
}

/** The nodes {@link runtimeKey} asks the symbol of for these sites, for a backend to ask in one request. */
export function runtimeKeyReferences(sites: readonly ToolSite[], backend: Backend): Node[] {
  return sites.flatMap((site) => referenceOf(site.fn, backend) ?? []);
}

/** The `fn.name` the runtime will see for the site's function, or undefined when it is not static. */
function functionName(fn: Expression, backend: Backend): string | undefined {
  const S = backend.syntax;
  if (S.isMethodDeclaration(fn)) return S.isIdentifier(fn.name) ? fn.name.text : undefined;
  const node = unwrap(fn, backend);
  // An anonymous function written inline as an argument gets no name from JavaScript.
  if (S.isArrowFunction(node)) return "";
  if (S.isFunctionExpression(node)) return (node.name && nameText(node.name, backend)) ?? "";
  const reference = referenceOf(fn, backend);
  if (!reference) return undefined;
  let symbol = backend.symbolAtLocation(reference);
  if (symbol && backend.symbolFlags(symbol) & SymbolFlag.Alias) symbol = backend.aliasedSymbol(symbol);
  const declaration = symbol && (backend.valueDeclaration(symbol) ?? backend.declarations(symbol)[0]);
  return declaration ? nameOfDeclaration(declaration, backend) : undefined;
}

/**
 * The `name` option of the site when its value is known at build time (a string literal,
 * or anything whose type is one string literal, like a `const`), `undefined` without one,
 * or `null` when it is not known.
 */
function optionName(options: Expression | undefined, backend: Backend): string | undefined | null {
  const S = backend.syntax;
  if (!options) return undefined;
  const node = unwrap(options, backend);
  if (!S.isObjectLiteralExpression(node)) return S.isIdentifier(node) && node.text === "undefined" ? undefined : null;
  for (const property of node.properties) {
    if (S.isSpreadAssignment(property)) return null;
    const name = (property as { readonly name?: Node }).name;
    if (name?.getText() !== "name") continue;
    if (!S.isPropertyAssignment(property)) return null;
    const value = unwrap(property.initializer, backend);
    if (S.isStringLiteral(value) || S.isNoSubstitutionTemplateLiteral(value)) return value.text;
    const type = backend.typeAtLocation(value);
    const literal = backend.typeFlags(type) & TypeFlag.StringLiteral ? backend.literalValue(type) : undefined;
    return typeof literal === "string" ? literal : null;
  }
  return undefined;
}

/** Computes the run-time key of a tool site for `toolwright gen`. */
export function runtimeKey(site: ToolSite, backend: Backend): RuntimeKey {
  const fn = functionName(site.fn, backend);
  if (fn === undefined) {
    return {
      problem:
        "toolwright gen cannot tell this function's run-time name (fn.name); pass a function declared by name " +
        "(function f() {} or const f = () => {}) to tool().",
    };
  }
  const name = optionName(site.options, backend);
  if (name === null) {
    return { problem: "toolwright gen needs the 'name' option of tool() to be a string literal (or absent)." };
  }
  return name === undefined ? { fn } : { fn, name };
}

/** Computes the run-time key of a `schema<T>()` call for `toolwright gen`: its literal `name` option. */
export function schemaKey(site: SchemaSite, backend: Backend): { name: string } | { problem: string } {
  const name = optionName(site.options, backend);
  if (typeof name === "string") return { name };
  return {
    problem:
      name === null
        ? `toolwright gen needs the 'name' option of schema() to be a string literal: it is how the call finds its generated spec at run time. Fix: e.g. schema<Answer>({ name: "answer" }).`
        : `toolwright gen finds a schema() call's spec at run time by its 'name' option, and this call has none. Fix: give it one, e.g. schema<Answer>({ name: "answer" }); or build with the transformer (tspc, esbuild, Vite), which needs none.`,
  };
}
