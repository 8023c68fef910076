import type { ToolFlags, ToolSpec } from "toolwright";
import type { Backend, TsSignature } from "./backend/backend.js";
import type { Expression, Node } from "./backend/syntax.js";
import { deriveParameters, type Problem } from "./derive-parameters.js";
import { DiagnosticCode } from "./diagnostics.js";
import { type DocBlock, docHost, readDoc } from "./docs.js";
import { functionDeclarationOf } from "./function-declaration.js";
import { literalProperty } from "./literal-value.js";
import type { ResolvedOptions } from "./options.js";
import { outputSchema } from "./output-schema.js";
import { policyDeclarations } from "./policy-tags.js";
import { projectPath } from "./project-path.js";
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
export function withStatementDoc(doc: DocBlock, site: Node, backend: Backend): DocBlock {
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

/** The call signature(s) of a site's function: one for a derivable site, several for an overloaded one. */
export function signatureOf(site: ToolSite, backend: Backend): TsSignature | readonly TsSignature[] {
  if (backend.syntax.isMethodDeclaration(site.fn)) return backend.signatureOfDeclaration(site.fn) ?? [];
  const declaration = functionDeclarationOf(site.fn, backend);
  return (
    (declaration && backend.signatureOfDeclaration(declaration)) ??
    backend.signaturesOfType(backend.typeAtLocation(site.fn), "call")
  );
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
  const output = outputSchema(signature, declaration, backend, problems);
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
      file: projectPath(ctx.rootDir, file.fileName),
      line: file.getLineAndCharacterOfPosition(place.getStart(file)).line + 1,
    },
  };
  return { spec, problems };
}
