import path from "node:path";
import type { JsonSchema, ToolFlags, ToolSpec } from "toolwright";
import { type Backend, type TsSignature, type TsType, TypeFlag } from "./backend/backend.js";
import type { Expression, Node } from "./backend/syntax.js";
import { deriveParameters, type Problem } from "./derive-parameters.js";
import { DiagnosticCode } from "./diagnostics.js";
import { type DocBlock, docHost, readDoc } from "./docs.js";
import { literalProperty } from "./literal-value.js";
import type { ResolvedOptions } from "./options.js";
import { policyDeclarations } from "./policy-tags.js";
import { SchemaConverter } from "./schema/SchemaConverter.js";
import type { ToolSite } from "./sites.js";
import type { ToolwrightTypes } from "./toolwright-types.js";

const FLAG_TAGS = ["readOnly", "idempotent", "destructive", "openWorld", "needsApproval"] as const;

/** What a derivation needs from its program. */
export interface DeriveContext {
  readonly backend: Backend;
  readonly types: ToolwrightTypes;
  readonly options: ResolvedOptions;
  /** `source.file` is written relative to this folder. */
  readonly rootDir: string;
}

function declaredName(declaration: Node, backend: Backend): string | undefined {
  const S = backend.syntax;
  if (
    (S.isFunctionDeclaration(declaration) ||
      S.isFunctionExpression(declaration) ||
      S.isMethodDeclaration(declaration)) &&
    declaration.name &&
    !S.isComputedPropertyName(declaration.name)
  ) {
    return declaration.name.getText();
  }
  const parent = declaration.parent;
  if (parent && (S.isVariableDeclaration(parent) || S.isPropertyAssignment(parent)) && S.isIdentifier(parent.name)) {
    return parent.name.text;
  }
  return undefined;
}

/** The variable a `tool(...)` call is assigned to, for inline anonymous functions. */
function assignedName(site: Node, backend: Backend): string | undefined {
  const S = backend.syntax;
  const parent = site.parent;
  return parent && S.isVariableDeclaration(parent) && S.isIdentifier(parent.name) ? parent.name.text : undefined;
}

/**
 * An inline function (`const t = tool((x: string) => ...)`) may be documented on the
 * statement instead: its summary and tags fill in what the function's own comment lacks.
 */
function withStatementDoc(doc: DocBlock, site: Node, backend: Backend): DocBlock {
  const S = backend.syntax;
  if (!S.isVariableDeclaration(site.parent)) return doc;
  const outer = readDoc(docHost(site.parent, S), S);
  return { summary: doc.summary || outer.summary, tags: [...outer.tags, ...doc.tags] };
}

function flagsFrom(doc: DocBlock, options: Expression | undefined, backend: Backend): ToolFlags {
  const flags: Record<string, boolean> = {};
  for (const flag of FLAG_TAGS) {
    const tag = doc.tags.find((t) => t.tag === flag);
    if (tag) flags[flag] = tag.value !== "false";
    const option = literalProperty(options, flag, backend.syntax);
    if (option.ok && typeof option.value === "boolean") flags[flag] = option.value;
  }
  return flags;
}

const UNCHECKABLE = TypeFlag.Void | TypeFlag.Undefined | TypeFlag.Any | TypeFlag.Unknown | TypeFlag.Never;

function isUncheckable(type: TsType, backend: Backend): boolean {
  return (
    (backend.typeFlags(type) & UNCHECKABLE) !== 0 ||
    ((backend.typeFlags(type) & TypeFlag.Union) !== 0 &&
      backend.typeMembers(type).some((t) => (backend.typeFlags(t) & UNCHECKABLE) !== 0))
  );
}

/** True for TypeScript's own `Promise<T>` (declared in a library file). */
function isPromise(type: TsType, backend: Backend): boolean {
  const symbol = backend.symbolOfType(type);
  return (
    symbol !== undefined &&
    backend.symbolName(symbol) === "Promise" &&
    backend.declarationFiles(symbol).some((file) => backend.isDefaultLibraryFile(file))
  );
}

/**
 * What a caller of a function returning `type` gets once it has awaited the result, as a
 * list of union members: `Promise<A> | B` gives `A` and `B`, `Promise<Promise<A>>` gives
 * `A`. Member by member, with the same rule on every compiler (TypeScript 7's API cannot
 * build the union `A | B` that `getAwaitedType` would); duplicates collapse
 * (`Promise<T> | T` is `T`), the members keep the return type's order.
 */
function awaitedMembers(type: TsType, backend: Backend): TsType[] {
  const members = backend.typeFlags(type) & TypeFlag.Union ? backend.typeMembers(type) : [type];
  const out: TsType[] = [];
  for (const member of members) {
    if (!isPromise(member, backend)) {
      if (!out.includes(member)) out.push(member);
      continue;
    }
    const [inner] = backend.typeArguments(member);
    for (const awaited of inner ? awaitedMembers(inner, backend) : []) if (!out.includes(awaited)) out.push(awaited);
  }
  return out;
}

/** True when a caller must await `type` (it is, or a union member is, a `Promise`). */
function awaits(type: TsType, backend: Backend): boolean {
  const members = backend.typeFlags(type) & TypeFlag.Union ? backend.typeMembers(type) : [type];
  return members.some((member) => isPromise(member, backend));
}

/**
 * The return type's schema (Promise unwrapped), or undefined when it cannot be checked.
 * A return type JSON cannot carry only means no output check; a failure inside toolwright
 * is still reported.
 */
function outputSchema(signature: TsSignature, backend: Backend, problems: Problem[]): JsonSchema | undefined {
  const returned = backend.returnTypeOfSignature(signature);
  const members = awaitedMembers(returned, backend);
  if (members.length === 0 || members.some((member) => isUncheckable(member, backend))) return undefined;
  const converter = new SchemaConverter(backend);
  const [only] = members;
  // A return type with no promise in it is mapped as it is (a recursive union keeps its `$ref`).
  const schema = !awaits(returned, backend)
    ? converter.convertRoot(returned, "return")
    : members.length === 1 && only
      ? converter.convertRoot(only, "return")
      : converter.convertRootUnion(members, "return", returned);
  for (const issue of converter.issues.filter((i) => i.kind === "internal")) {
    problems.push({
      node: backend.signatureDeclaration(signature) as Node,
      code: DiagnosticCode.internalError,
      message: `toolwright failed to map the return type: ${issue.construct}. Fix: ${issue.fix}.`,
    });
  }
  if (converter.issues.length > 0) return undefined;
  return Object.keys(converter.defs).length > 0 ? { ...schema, $defs: converter.defs } : schema;
}

/** The call signature(s) of a site's function: one for a derivable site, several for an overloaded one. */
export function signatureOf(site: ToolSite, backend: Backend): TsSignature | readonly TsSignature[] {
  if (backend.syntax.isMethodDeclaration(site.fn)) return backend.signatureOfDeclaration(site.fn) ?? [];
  return backend.signaturesOfType(backend.typeAtLocation(site.fn), "call");
}

/**
 * Derives the {@link ToolSpec} of one tool site (design.md rules 2-6). Problems are
 * returned, never thrown; `spec` is undefined only when the site cannot be derived at all.
 */
export function deriveSpec(site: ToolSite, ctx: DeriveContext): { spec?: ToolSpec; problems: Problem[] } {
  const { backend } = ctx;
  const S = backend.syntax;
  const problems: Problem[] = [];
  const found = signatureOf(site, backend);
  const signature = Array.isArray(found) ? (found.length === 1 ? found[0] : undefined) : (found as TsSignature);
  if (!signature) {
    const what = Array.isArray(found) && found.length > 1 ? "an overloaded function" : "not a function";
    problems.push({
      node: site.node,
      code: DiagnosticCode.badSite,
      message: `the tool's first argument is ${what}, so no schema can be derived. Fix: pass one function with a single signature.`,
    });
    return { problems };
  }
  const declaration = backend.signatureDeclaration(signature) as Node;
  const doc = withStatementDoc(readDoc(docHost(declaration, S), S), site.node, backend);
  const nameOption = literalProperty(site.options, "name", S);
  const name =
    (nameOption.ok && typeof nameOption.value === "string" ? nameOption.value : undefined) ??
    declaredName(declaration, backend) ??
    assignedName(site.node, backend);
  if (name === undefined) {
    problems.push({
      node: site.node,
      code: DiagnosticCode.badSite,
      message: `this tool has no name: its function is anonymous. Fix: pass { name: "..." } to tool() or use a named function.`,
    });
    return { problems };
  }
  const descriptionOption = literalProperty(site.options, "description", S);
  const description =
    descriptionOption.ok && typeof descriptionOption.value === "string" ? descriptionOption.value : doc.summary;
  const { parameters, slots } = deriveParameters(
    { backend, types: ctx.types, options: ctx.options, signature, doc, toolName: name },
    problems,
  );
  const output = outputSchema(signature, backend, problems);
  const policy = policyDeclarations(
    { doc, declaration: declaration ?? site.node, options: site.options, parameters, toolName: name, syntax: S },
    problems,
  );
  // A bare function in a tool list is defined where it is declared, not in the list.
  const place = site.emission.kind === "wrap" ? declaration : site.node;
  const file = place.getSourceFile();
  const spec: ToolSpec = {
    $toolwright: 1,
    name,
    description,
    parameters,
    slots,
    ...(output ? { outputSchema: output } : {}),
    flags: flagsFrom(doc, site.options, backend),
    ...policy,
    source: {
      file: path.relative(ctx.rootDir, file.fileName).split(path.sep).join("/"),
      line: file.getLineAndCharacterOfPosition(place.getStart(file)).line + 1,
    },
  };
  return { spec, problems };
}
