import path from "node:path";
import type { JsonSchema, ToolFlags, ToolSpec } from "toolwright";
import type ts from "typescript";
import { deriveParameters, type Problem } from "./derive-parameters.js";
import { DiagnosticCode } from "./diagnostics.js";
import { type DocBlock, docHost, readDoc } from "./docs.js";
import { literalProperty } from "./literal-value.js";
import type { ResolvedOptions } from "./options.js";
import { policyDeclarations } from "./policy-tags.js";
import { SchemaConverter } from "./schema/SchemaConverter.js";
import type { ToolSite } from "./sites.js";
import type { ToolwrightTypes } from "./toolwright-types.js";
import { TS } from "./typescript-host.js";

const FLAG_TAGS = ["readOnly", "idempotent", "destructive", "openWorld", "needsApproval"] as const;

/** What a derivation needs from its Program. */
export interface DeriveContext {
  readonly checker: ts.TypeChecker;
  readonly types: ToolwrightTypes;
  readonly options: ResolvedOptions;
  /** `source.file` is written relative to this folder. */
  readonly rootDir: string;
}

function declaredName(declaration: ts.Node): string | undefined {
  if (
    (TS.isFunctionDeclaration(declaration) ||
      TS.isFunctionExpression(declaration) ||
      TS.isMethodDeclaration(declaration)) &&
    declaration.name &&
    !TS.isComputedPropertyName(declaration.name)
  ) {
    return declaration.name.getText();
  }
  const parent = declaration.parent;
  if (parent && (TS.isVariableDeclaration(parent) || TS.isPropertyAssignment(parent)) && TS.isIdentifier(parent.name)) {
    return parent.name.text;
  }
  return undefined;
}

/** The variable a `tool(...)` call is assigned to, for inline anonymous functions. */
function assignedName(site: ts.Node): string | undefined {
  const parent = site.parent;
  return parent && TS.isVariableDeclaration(parent) && TS.isIdentifier(parent.name) ? parent.name.text : undefined;
}

/**
 * An inline function (`const t = tool((x: string) => ...)`) may be documented on the
 * statement instead: its summary and tags fill in what the function's own comment lacks.
 */
function withStatementDoc(doc: DocBlock, site: ts.Node): DocBlock {
  if (!TS.isVariableDeclaration(site.parent)) return doc;
  const outer = readDoc(docHost(site.parent));
  return { summary: doc.summary || outer.summary, tags: [...outer.tags, ...doc.tags] };
}

function flagsFrom(doc: DocBlock, options: ts.Expression | undefined): ToolFlags {
  const flags: Record<string, boolean> = {};
  for (const flag of FLAG_TAGS) {
    const tag = doc.tags.find((t) => t.tag === flag);
    if (tag) flags[flag] = tag.value !== "false";
    const option = literalProperty(options, flag);
    if (option.ok && typeof option.value === "boolean") flags[flag] = option.value;
  }
  return flags;
}

function isUncheckable(type: ts.Type): boolean {
  const skip =
    TS.TypeFlags.Void | TS.TypeFlags.Undefined | TS.TypeFlags.Any | TS.TypeFlags.Unknown | TS.TypeFlags.Never;
  return (type.flags & skip) !== 0 || (type.isUnion() && type.types.some((t) => (t.flags & skip) !== 0));
}

/**
 * The return type's schema (Promise unwrapped), or undefined when it cannot be checked.
 * A return type JSON cannot carry only means no output check; a failure inside toolwright
 * is still reported.
 */
function outputSchema(signature: ts.Signature, checker: ts.TypeChecker, problems: Problem[]): JsonSchema | undefined {
  const returned = checker.getReturnTypeOfSignature(signature);
  const type = checker.getAwaitedType(returned) ?? returned;
  if (isUncheckable(type)) return undefined;
  const converter = new SchemaConverter(checker);
  const schema = converter.convertRoot(type, "return");
  for (const issue of converter.issues.filter((i) => i.kind === "internal")) {
    problems.push({
      node: signature.getDeclaration(),
      code: DiagnosticCode.internalError,
      message: `toolwright failed to map the return type: ${issue.construct}. Fix: ${issue.fix}.`,
    });
  }
  if (converter.issues.length > 0) return undefined;
  return Object.keys(converter.defs).length > 0 ? { ...schema, $defs: converter.defs } : schema;
}

/** The call signature(s) of a site's function: one for a derivable site, several for an overloaded one. */
export function signatureOf(site: ToolSite, checker: ts.TypeChecker): ts.Signature | readonly ts.Signature[] {
  if (TS.isMethodDeclaration(site.fn)) return checker.getSignatureFromDeclaration(site.fn) ?? [];
  return checker.getSignaturesOfType(checker.getTypeAtLocation(site.fn), TS.SignatureKind.Call);
}

/**
 * Derives the {@link ToolSpec} of one tool site (design.md rules 2-6). Problems are
 * returned, never thrown; `spec` is undefined only when the site cannot be derived at all.
 */
export function deriveSpec(site: ToolSite, ctx: DeriveContext): { spec?: ToolSpec; problems: Problem[] } {
  const problems: Problem[] = [];
  const found = signatureOf(site, ctx.checker);
  const signature = "length" in found ? (found.length === 1 ? found[0] : undefined) : found;
  if (!signature) {
    const what = "length" in found && found.length > 1 ? "an overloaded function" : "not a function";
    problems.push({
      node: site.node,
      code: DiagnosticCode.badSite,
      message: `the tool's first argument is ${what}, so no schema can be derived. Fix: pass one function with a single signature.`,
    });
    return { problems };
  }
  const declaration = signature.getDeclaration();
  const doc = withStatementDoc(readDoc(docHost(declaration)), site.node);
  const nameOption = literalProperty(site.options, "name");
  const name =
    (nameOption.ok && typeof nameOption.value === "string" ? nameOption.value : undefined) ??
    declaredName(declaration) ??
    assignedName(site.node);
  if (name === undefined) {
    problems.push({
      node: site.node,
      code: DiagnosticCode.badSite,
      message: `this tool has no name: its function is anonymous. Fix: pass { name: "..." } to tool() or use a named function.`,
    });
    return { problems };
  }
  const descriptionOption = literalProperty(site.options, "description");
  const description =
    descriptionOption.ok && typeof descriptionOption.value === "string" ? descriptionOption.value : doc.summary;
  const { parameters, slots } = deriveParameters(
    { checker: ctx.checker, types: ctx.types, options: ctx.options, signature, doc, toolName: name },
    problems,
  );
  const output = outputSchema(signature, ctx.checker, problems);
  const policy = policyDeclarations(
    { doc, declaration: declaration ?? site.node, options: site.options, parameters, toolName: name },
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
    flags: flagsFrom(doc, site.options),
    ...policy,
    source: {
      file: path.relative(ctx.rootDir, file.fileName).split(path.sep).join("/"),
      line: file.getLineAndCharacterOfPosition(place.getStart(file)).line + 1,
    },
  };
  return { spec, problems };
}
