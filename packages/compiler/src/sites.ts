import { type Backend, SymbolFlag, type TsSignature, type TsSymbol, type TsType, TypeFlag } from "./backend/backend.js";
import { isScriptFileName } from "./backend/script-file-name.js";
import type {
  ArrayLiteralExpression,
  CallExpression,
  Expression,
  Node,
  SourceFile,
  WrappingNode,
} from "./backend/syntax.js";
import type { CallOverloads } from "./call-overloads.js";
import { functionDeclarationOf } from "./function-declaration.js";
import type { ToolwrightTypes } from "./toolwright-types.js";

/**
 * How the spec is written at a site:
 * - `append`: add `undefined` × `padding` and the spec after the call's arguments;
 * - `call`: turn a bare decorator `@tool` into `@tool(undefined, SPEC)`;
 * - `wrap`: replace a list element `fn` with `{ fn, spec: SPEC }`.
 */
export type Emission =
  | { readonly kind: "append"; readonly call: CallExpression; readonly padding: number }
  | { readonly kind: "call"; readonly decorator: WrappingNode }
  | { readonly kind: "wrap"; readonly element: Expression };

/** A place in the source where a tool is made and a spec must be written. */
export interface ToolSite {
  /** The node diagnostics about the site point at. */
  readonly node: Node;
  /** The function the spec is derived from (an expression, or the decorated method). */
  readonly fn: Expression;
  /** The `tool()` options argument, when there is one. */
  readonly options?: Expression;
  readonly emission: Emission;
}

/**
 * A `schema<T>()` call: a call whose resolved signature has a `CompiledSchema` parameter not
 * yet filled. Its spec is derived from `T` (see {@link typeArgument}) and appended.
 */
export interface SchemaSite {
  readonly node: CallExpression;
  /** The `schema()` options argument, when there is one. */
  readonly options?: Expression;
  readonly emission: Emission & { readonly kind: "append" };
}

/** True for a tool site, false for a `schema<T>()` call. */
export function isToolSite(site: ToolSite | SchemaSite): site is ToolSite {
  return "fn" in site;
}

/** Every site of one file: tools, and `schema<T>()` calls. */
export interface FileSites {
  readonly tools: ToolSite[];
  readonly schemas: SchemaSite[];
}

/** What finding sites needs: the backend, toolwright's types in its program, and which files reach them. */
interface Finder {
  readonly backend: Backend;
  readonly types: ToolwrightTypes;
  /** Which signature a call resolved to, where its type tells without resolving it. */
  readonly overloads: CallOverloads;
  /** False for a file whose declarations cannot name toolwright's types: its module references lead to no toolwright module ({@link SiteReach}). */
  mayUseToolwright(fileName: string): boolean;
}

function unwrap(expression: Expression, { backend: { syntax: S } }: Finder): Expression {
  let node = expression;
  while (S.isParenthesizedExpression(node) || S.isAsExpression(node) || S.isSatisfiesExpression(node)) {
    node = node.expression;
  }
  return node;
}

function isFunctionValued(node: Expression, { backend }: Finder): boolean {
  return (
    functionDeclarationOf(node, backend) !== undefined ||
    backend.signaturesOfType(backend.typeAtLocation(node), "call").length > 0
  );
}

function decoratorSite(decorator: WrappingNode, finder: Finder): ToolSite | undefined {
  const { backend, types } = finder;
  const S = backend.syntax;
  const method = decorator.parent;
  if (!S.isMethodDeclaration(method)) return undefined;
  const expression = decorator.expression;
  if (S.isCallExpression(expression)) {
    const signature = backend.resolvedSignature(expression);
    const index = signature ? types.specParameterIndex(signature) : -1;
    if (index < 0 || expression.arguments.length > index) return undefined;
    return {
      node: decorator,
      fn: method,
      ...(expression.arguments[0] ? { options: expression.arguments[0] } : {}),
      emission: { kind: "append", call: expression, padding: index - expression.arguments.length },
    };
  }
  const signatures = backend.signaturesOfType(backend.typeAtLocation(expression), "call");
  if (!signatures.some((s) => types.specParameterIndex(s) >= 0)) return undefined;
  return { node: decorator, fn: method, emission: { kind: "call", decorator } };
}

/** `schema<T>(options?, spec?)`: the spec parameter comes after at most the options. */
function schemaSite(call: CallExpression, signature: TsSignature, types: ToolwrightTypes): SchemaSite | undefined {
  const index = types.schemaParameterIndex(signature);
  if (index < 0 || call.arguments.length > index) return undefined;
  // The options come just before the spec: `schema<T>(options?, spec?)`.
  const options = index >= 1 ? call.arguments[index - 1] : undefined;
  return {
    node: call,
    ...(options ? { options } : {}),
    emission: { kind: "append", call, padding: index - call.arguments.length },
  };
}

/** The name a call's callee refers to: `f` in `f()`, `m` in `a.b.m()`; undefined for any other callee. */
function calleeName(call: CallExpression, finder: Finder): Node | undefined {
  const S = finder.backend.syntax;
  const callee = unwrap(call.expression, finder);
  if (S.isIdentifier(callee)) return callee;
  return S.isPropertyAccessExpression(callee) ? callee.name : undefined;
}

/**
 * False when the callee is a name whose every declaration is in a file that cannot name
 * toolwright's types (a default library, a package that never names toolwright, a project
 * file whose imports lead to no toolwright module): no signature declared there has a spec
 * or schema parameter, so the call is no site and its signature needs no resolving. Over
 * TypeScript 7's API that is a request per call, and most calls in a tool's body are such
 * calls (`JSON.stringify`, `s.split`, `items.map`).
 */
function calleeMayTakeSpec(call: CallExpression, finder: Finder): boolean {
  return mayTakeSpec(calleeOf(call, finder), finder);
}

/** {@link calleeMayTakeSpec} of a callee already looked up (undefined: a callee with no name to follow). */
function mayTakeSpec(callee: TsSymbol | undefined, finder: Finder): boolean {
  if (!callee) return true;
  const files = finder.backend.declarationFiles(callee);
  return files.length === 0 || files.some((file) => finder.mayUseToolwright(file));
}

/** The symbol a call's callee name refers to, through imports and re-exports; undefined for other callees. */
function calleeOf(call: CallExpression, finder: Finder): TsSymbol | undefined {
  const { backend } = finder;
  const name = calleeName(call, finder);
  const found = name && backend.symbolAtLocation(name);
  if (!found) return undefined;
  return backend.symbolFlags(found) & SymbolFlag.Alias ? backend.aliasedSymbol(found) : found;
}

function callSite(call: CallExpression, finder: Finder): ToolSite | SchemaSite | undefined {
  const { backend, types } = finder;
  const [first, second] = call.arguments;
  if (backend.syntax.isDecorator(call.parent)) return undefined;
  const callee = calleeOf(call, finder);
  if (!mayTakeSpec(callee, finder)) return undefined;
  // The checker caches each resolved signature, and the spec index is kept per declaration.
  const signature = (callee && finder.overloads.signatureOf(call, callee)) ?? backend.resolvedSignature(call);
  if (!signature) return undefined;
  const schema = schemaSite(call, signature, types);
  if (schema || !first) return schema;
  // Index 0 would be `tool(options?, spec?)`, the decorator factory.
  const index = types.specParameterIndex(signature);
  if (index < 1 || call.arguments.length > index) return undefined;
  // The decorator factory `tool(options?)` also has a spec parameter: only calls whose first
  // argument is a function are function tool sites.
  if (!isFunctionValued(first, finder)) return undefined;
  return {
    node: call,
    fn: unwrap(first, finder),
    ...(second && index >= 2 ? { options: second } : {}),
    emission: { kind: "append", call, padding: index - call.arguments.length },
  };
}

/**
 * False for a list no type reaches from where it is written: the initializer of a variable
 * named by a plain identifier, with no annotation, in a TypeScript file. The checker gives
 * such a list no contextual type (a JavaScript file's JSDoc `@type` would, and a binding
 * pattern does), so the most common list, `const tools = [tool(a), ...]`, costs no question.
 */
function mayBeContextuallyTyped(list: ArrayLiteralExpression, S: Finder["backend"]["syntax"]): boolean {
  const parent = list.parent;
  return !(
    parent &&
    S.isVariableDeclaration(parent) &&
    parent.initializer === list &&
    !parent.type &&
    S.isIdentifier(parent.name) &&
    !isScriptFileName(list.getSourceFile().fileName)
  );
}

function elementSites(list: ArrayLiteralExpression, finder: Finder): ToolSite[] {
  const { backend, types } = finder;
  const S = backend.syntax;
  if (!mayBeContextuallyTyped(list, S)) return [];
  const contextual = backend.contextualType(list);
  if (!contextual) return [];
  // `new Agent({ tools: [...] })` infers `Tools extends readonly ToolInput[]`, which makes the
  // list's contextual type `readonly ToolInput[] & F[]`: look into intersections as into unions.
  const members = (t: typeof contextual, flag: number) => (backend.typeFlags(t) & flag ? backend.typeMembers(t) : [t]);
  const candidates = members(contextual, TypeFlag.Union).flatMap((t) => members(t, TypeFlag.Intersection));
  const isToolList = candidates.some((c) => {
    const element = backend.indexInfosOfType(c).find((info) => backend.typeFlags(info.keyType) & TypeFlag.Number);
    return element !== undefined && types.isToolInput(element.valueType);
  });
  if (!isToolList) return [];
  return list.elements
    .filter((e) => !S.isSpreadElement(e) && !S.isOmittedExpression(e) && isFunctionValued(e, finder))
    .map((e) => ({ node: e, fn: unwrap(e, finder), emission: { kind: "wrap", element: e } }));
}

/**
 * Types are erased and hold no calls, decorators or array literals: half of a typed file's
 * nodes need no visit. A class's `extends f(...)` is an expression written as a type node.
 */
function isTypeOnly(node: Node, { backend: { syntax: S } }: Finder): boolean {
  return (
    (S.isTypeNode(node) && !S.isExpressionWithTypeArguments(node)) ||
    S.isInterfaceDeclaration(node) ||
    S.isTypeAliasDeclaration(node)
  );
}

/** A file's calls and array literals outside its types, found without asking anything: what {@link findSites} visits. */
export interface SiteCandidates {
  readonly calls: readonly CallExpression[];
  readonly lists: readonly ArrayLiteralExpression[];
}

/** The {@link SiteCandidates} of a file, in one walk. */
export function siteCandidates(file: SourceFile, finder: Finder): SiteCandidates {
  const S = finder.backend.syntax;
  const calls: CallExpression[] = [];
  const lists: ArrayLiteralExpression[] = [];
  const visit = (node: Node): void => {
    if (isTypeOnly(node, finder)) return;
    if (S.isCallExpression(node)) calls.push(node);
    else if (S.isArrayLiteralExpression(node)) lists.push(node);
    node.forEachChild(visit);
  };
  visit(file);
  return { calls, lists };
}

/** What {@link findSites} asks first, so that a backend over IPC fetches them in one request: the symbols of the calls' callee names. */
export function calleeNames({ calls }: SiteCandidates, finder: Finder): Node[] {
  return calls.flatMap((call) => calleeName(call, finder) ?? []);
}

/**
 * What {@link findSites} asks next, in one request too, once the callees are known: the
 * types of each call whose callee may take a spec (which tell its signature, see
 * {@link CallOverloads}) and of its first argument, and of the list elements that can be
 * functions (names, property accesses, function expressions).
 */
export function candidateExpressions({ calls, lists }: SiteCandidates, finder: Finder): Node[] {
  const S = finder.backend.syntax;
  const mayBeFunction = (e: Node) =>
    S.isIdentifier(e) || S.isPropertyAccessExpression(e) || S.isArrowFunction(e) || S.isFunctionExpression(e);
  return [
    ...calls.flatMap((call) => (calleeMayTakeSpec(call, finder) ? [call, ...call.arguments.slice(0, 1)] : [])),
    ...lists.flatMap((list) => list.elements.filter(mayBeFunction)),
  ];
}

/**
 * Finds every site in a file, in one walk: tool sites (calls whose resolved signature has a
 * `CompiledSpec` parameter not yet filled, `@tool` decorators resolving to such a function,
 * bare functions in `ToolInput[]` lists) and `schema<T>()` calls (a `CompiledSchema`
 * parameter not yet filled).
 */
export function findSites(file: SourceFile, finder: Finder): FileSites {
  const S = finder.backend.syntax;
  const tools: ToolSite[] = [];
  const schemas: SchemaSite[] = [];
  const visit = (node: Node): void => {
    if (isTypeOnly(node, finder)) return;
    if (S.isDecorator(node)) {
      const site = decoratorSite(node, finder);
      if (site) tools.push(site);
    } else if (S.isCallExpression(node)) {
      const site = callSite(node, finder);
      if (site && isToolSite(site)) tools.push(site);
      else if (site) schemas.push(site);
    } else if (S.isArrayLiteralExpression(node) && node.elements.length > 0) {
      tools.push(...elementSites(node, finder));
    }
    node.forEachChild(visit);
  };
  visit(file);
  return { tools, schemas };
}

/**
 * The `T` of a `schema<T>()` site, as its resolved signature instantiates it (the first type
 * argument of the `Schema<T>` it returns): written, or inferred from the context.
 */
export function typeArgument(site: SchemaSite, backend: Backend): TsType | undefined {
  const signature = backend.resolvedSignature(site.node);
  return signature && backend.typeArguments(backend.returnTypeOfSignature(signature))[0];
}
