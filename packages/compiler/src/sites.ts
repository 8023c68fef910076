import type ts from "typescript";
import type { ToolwrightTypes } from "./toolwright-types.js";
import { TS } from "./typescript-host.js";

/**
 * How the spec is written at a site:
 * - `append`: add `undefined` × `padding` and the spec after the call's arguments;
 * - `call`: turn a bare decorator `@tool` into `@tool(undefined, SPEC)`;
 * - `wrap`: replace a list element `fn` with `{ fn, spec: SPEC }`.
 */
export type Emission =
  | { readonly kind: "append"; readonly call: ts.CallExpression; readonly padding: number }
  | { readonly kind: "call"; readonly decorator: ts.Decorator }
  | { readonly kind: "wrap"; readonly element: ts.Expression };

/** A place in the source where a tool is made and a spec must be written. */
export interface ToolSite {
  /** The node diagnostics about the site point at. */
  readonly node: ts.Node;
  /** The function the spec is derived from (an expression, or the decorated method). */
  readonly fn: ts.Expression | ts.MethodDeclaration;
  /** The `tool()` options argument, when there is one. */
  readonly options?: ts.Expression;
  readonly emission: Emission;
}

function unwrap(expression: ts.Expression): ts.Expression {
  let node = expression;
  while (TS.isParenthesizedExpression(node) || TS.isAsExpression(node) || TS.isSatisfiesExpression(node)) {
    node = node.expression;
  }
  return node;
}

function isFunctionValued(node: ts.Expression, checker: ts.TypeChecker): boolean {
  return checker.getSignaturesOfType(checker.getTypeAtLocation(node), TS.SignatureKind.Call).length > 0;
}

function decoratorSite(decorator: ts.Decorator, types: ToolwrightTypes, checker: ts.TypeChecker): ToolSite | undefined {
  const method = decorator.parent;
  if (!TS.isMethodDeclaration(method)) return undefined;
  const expression = decorator.expression;
  if (TS.isCallExpression(expression)) {
    const signature = checker.getResolvedSignature(expression);
    const index = signature ? types.specParameterIndex(signature) : -1;
    if (index < 0 || expression.arguments.length > index) return undefined;
    return {
      node: decorator,
      fn: method,
      ...(expression.arguments[0] ? { options: expression.arguments[0] } : {}),
      emission: { kind: "append", call: expression, padding: index - expression.arguments.length },
    };
  }
  const signatures = checker.getSignaturesOfType(checker.getTypeAtLocation(expression), TS.SignatureKind.Call);
  if (!signatures.some((s) => types.specParameterIndex(s) >= 0)) return undefined;
  return { node: decorator, fn: method, emission: { kind: "call", decorator } };
}

function callSite(call: ts.CallExpression, types: ToolwrightTypes, checker: ts.TypeChecker): ToolSite | undefined {
  const [first, second] = call.arguments;
  if (!first || TS.isDecorator(call.parent)) return undefined;
  // The resolved signature is cached by the checker and the spec index per declaration, so
  // this rejects ordinary calls cheaply; index 0 would be `tool(options?, spec?)`.
  const signature = checker.getResolvedSignature(call);
  const index = signature ? types.specParameterIndex(signature) : -1;
  if (index < 1 || call.arguments.length > index) return undefined;
  // The decorator factory `tool(options?)` also has a spec parameter: only calls whose first
  // argument is a function are function tool sites.
  if (!isFunctionValued(first, checker)) return undefined;
  return {
    node: call,
    fn: unwrap(first),
    ...(second && index >= 2 ? { options: second } : {}),
    emission: { kind: "append", call, padding: index - call.arguments.length },
  };
}

function elementSites(list: ts.ArrayLiteralExpression, types: ToolwrightTypes, checker: ts.TypeChecker): ToolSite[] {
  const contextual = checker.getContextualType(list);
  if (!contextual) return [];
  // `new Agent({ tools: [...] })` infers `Tools extends readonly ToolInput[]`, which makes the
  // list's contextual type `readonly ToolInput[] & F[]`: look into intersections as into unions.
  const candidates = (contextual.isUnion() ? contextual.types : [contextual]).flatMap((t) =>
    t.isIntersection() ? t.types : [t],
  );
  const isToolList = candidates.some((c) => {
    const element = checker.getIndexTypeOfType(c, TS.IndexKind.Number);
    return element !== undefined && types.isToolInput(element);
  });
  if (!isToolList) return [];
  return list.elements
    .filter((e) => !TS.isSpreadElement(e) && !TS.isOmittedExpression(e) && isFunctionValued(e, checker))
    .map((e) => ({ node: e, fn: unwrap(e), emission: { kind: "wrap", element: e } }));
}

/**
 * Types are erased and hold no calls, decorators or array literals: half of a typed file's
 * nodes need no visit. A class's `extends f(...)` is an expression written as a type node.
 */
function isTypeOnly(node: ts.Node): boolean {
  return (
    (TS.isTypeNode(node) && !TS.isExpressionWithTypeArguments(node)) ||
    TS.isInterfaceDeclaration(node) ||
    TS.isTypeAliasDeclaration(node)
  );
}

/**
 * Finds every tool site in a file: calls whose resolved signature has a `CompiledSpec`
 * parameter not yet filled, `@tool` decorators resolving to such a function, and bare
 * functions in `ToolInput[]` lists.
 */
export function findToolSites(file: ts.SourceFile, types: ToolwrightTypes, checker: ts.TypeChecker): ToolSite[] {
  const sites: ToolSite[] = [];
  const visit = (node: ts.Node): void => {
    if (isTypeOnly(node)) return;
    if (TS.isDecorator(node)) {
      const site = decoratorSite(node, types, checker);
      if (site) sites.push(site);
    } else if (TS.isCallExpression(node)) {
      const site = callSite(node, types, checker);
      if (site) sites.push(site);
    } else if (TS.isArrayLiteralExpression(node) && node.elements.length > 0) {
      sites.push(...elementSites(node, types, checker));
    }
    TS.forEachChild(node, visit);
  };
  visit(file);
  return sites;
}
