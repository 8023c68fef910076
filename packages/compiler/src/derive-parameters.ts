import type { JsonSchema, ParamSlot } from "toolwright";
import { type Backend, type TsSignature, type TsType, TypeFlag } from "./backend/backend.js";
import type { BindingElement, BindingPattern, Node } from "./backend/syntax.js";
import { DiagnosticCode } from "./diagnostics.js";
import { type DocBlock, paramText, readDoc } from "./docs.js";
import { literalOf } from "./literal-value.js";
import type { ResolvedOptions } from "./options.js";
import { keywordsFromDoc, paramConstraints, withDoc } from "./schema/keywords.js";
import { holdsNoValue } from "./schema/no-value.js";
import { SchemaConverter } from "./schema/SchemaConverter.js";
import { includesUndefined } from "./schema/type-facts.js";
import { uncheckedConstraints } from "./schema/unchecked-constraints.js";
import type { ToolwrightTypes } from "./toolwright-types.js";

/** A problem found while deriving; turned into a diagnostic by the caller. */
export interface Problem {
  readonly node: Node;
  readonly code: number;
  readonly message: string;
}

/** The arguments schema and the slot of every function parameter. */
export interface DerivedParameters {
  readonly parameters: JsonSchema;
  readonly slots: ParamSlot[];
}

interface Input {
  readonly backend: Backend;
  readonly types: ToolwrightTypes;
  readonly options: ResolvedOptions;
  readonly signature: TsSignature;
  readonly doc: DocBlock;
  readonly toolName: string;
}

function objectSchema(properties: Record<string, JsonSchema>, required: string[]): JsonSchema {
  return {
    type: "object",
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

/** Rule 2 for a single destructured parameter: its type's properties, with binding defaults. */
function destructured(
  pattern: BindingPattern,
  schema: JsonSchema,
  defs: Record<string, JsonSchema>,
  doc: DocBlock,
  backend: Backend,
): JsonSchema {
  const ref = typeof schema.$ref === "string" ? schema.$ref.replace("#/$defs/", "") : undefined;
  const root = (ref ? defs[ref] : schema) ?? schema;
  const properties = { ...((root.properties ?? {}) as Record<string, JsonSchema>) };
  let required = Array.isArray(root.required) ? (root.required as string[]) : [];
  for (const element of pattern.elements as readonly BindingElement[]) {
    const key = bindingKey(element);
    const current = key === undefined ? undefined : properties[key];
    if (key === undefined || !current) continue;
    const text = paramText(doc, key);
    const initial = element.initializer ? literalOf(element.initializer, backend.syntax) : undefined;
    // Constraint tags after the `@param` apply unless the member's own comment sets them.
    const constraints = Object.entries(keywordsFromDoc(paramConstraints(doc, key))).filter(
      ([keyword]) => current[keyword] === undefined,
    );
    properties[key] = {
      ...current,
      ...Object.fromEntries(constraints),
      ...(text && current.description === undefined ? { description: text } : {}),
      ...(initial?.ok && current.default === undefined ? { default: initial.value } : {}),
    };
    if (element.initializer) required = required.filter((r) => r !== key);
  }
  return { ...root, properties, ...(required.length > 0 ? { required } : { required: undefined }) };
}

/** Reports, at `node`, each constraint of `schema` no validator would enforce (TW990011). */
function uncheckedIn(schema: JsonSchema, root: string, node: Node, toolName: string, problems: Problem[]): void {
  for (const { path, message } of uncheckedConstraints(schema, root)) {
    problems.push({
      node,
      code: DiagnosticCode.uncheckedConstraint,
      message: `tool "${toolName}": \`${path}\` ${message}.`,
    });
  }
}

/** The property a binding element reads: `{ a }` and `{ a: b }` both read `a`. */
export function bindingKey(element: BindingElement): string | undefined {
  return (element.propertyName ?? element.name)?.getText();
}

/** The type to suggest for an unannotated parameter: the one TypeScript inferred, or `string` when it only sees `any`. */
function suggestedType(type: TsType, backend: Backend): string {
  return backend.typeFlags(type) & TypeFlag.Any ? "string" : backend.typeToString(backend.baseTypeOfLiteral(type));
}

/** Types that ask for no deps: `ToolContext` (deps `unknown`), `ToolContext<never>`, `<undefined>`, `<void>`, `<any>`. */
const NO_DEPS = TypeFlag.Any | TypeFlag.Unknown | TypeFlag.Never | TypeFlag.Undefined | TypeFlag.Void;

/** Whether a `ToolContext<D>` parameter asks for deps: its `deps` member has a type of its own. */
function contextNeedsDeps(backend: Backend, context: TsType): boolean {
  const deps = backend.propertiesOfType(context).find((member) => backend.symbolName(member) === "deps");
  return deps !== undefined && (backend.typeFlags(backend.typeOfSymbol(deps)) & NO_DEPS) === 0;
}

/**
 * Rules 2 and 3: one property per non-context parameter (in order), or the properties of
 * a single destructured parameter; `ToolContext` parameters become context slots.
 */
export function deriveParameters(input: Input, problems: Problem[]): DerivedParameters {
  const { backend, types, options, signature, doc, toolName } = input;
  const S = backend.syntax;
  const converter = new SchemaConverter(backend);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const slots: ParamSlot[] = [];
  let pattern: { node: BindingPattern; schema: JsonSchema } | undefined;
  const symbols = backend.signatureParameters(signature);
  const parameterTypes = backend.typesOfSymbols(symbols);
  const isContext = parameterTypes.map((type) => types.hasBrand(type, "toolContextBrand"));
  const dataParameters = isContext.filter((context) => !context).length;

  for (const [i, symbol] of symbols.entries()) {
    const declaration = backend.valueDeclaration(symbol);
    const type = parameterTypes[i] as TsType;
    if (isContext[i]) {
      slots.push(
        contextNeedsDeps(backend, type) ? { kind: "context", deps: true as const } : { kind: "context" as const },
      );
      continue;
    }
    if (!declaration || !S.isParameter(declaration)) {
      problems.push({
        node: backend.signatureDeclaration(signature) as Node,
        code: DiagnosticCode.badSite,
        message: `tool "${toolName}": parameter "${backend.symbolName(symbol)}" has no declaration to read. Fix: declare the function with named, typed parameters.`,
      });
      continue;
    }
    const name = S.isIdentifier(declaration.name) ? declaration.name.text : backend.symbolName(symbol);
    if (declaration.dotDotDotToken) {
      problems.push({
        node: declaration,
        code: DiagnosticCode.badSite,
        message: `tool "${toolName}": the rest parameter "...${name}" cannot be named in a JSON object. Fix: take an array parameter instead (e.g. "${name}: string[]").`,
      });
      continue;
    }
    if (!declaration.type && (options.requireAnnotations || backend.typeFlags(type) & TypeFlag.Any)) {
      problems.push({
        node: declaration,
        code: DiagnosticCode.missingAnnotation,
        message: `tool "${toolName}": parameter "${declaration.name.getText()}" has no type annotation, so its schema cannot be derived. Fix: annotate it, e.g. "${declaration.name.getText()}: ${suggestedType(type, backend)}".`,
      });
      continue;
    }
    const optional = !!declaration.questionToken || !!declaration.initializer || includesUndefined(type, backend);
    if (S.isIdentifier(declaration.name) && optional && holdsNoValue(type, backend)) {
      // `hint?: never`: no JSON value fits, so the key is never sent and the function gets undefined.
      slots.push({ kind: "arg", name });
      continue;
    }
    const before = converter.issues.length;
    const schema = converter.convertRoot(type, S.isIdentifier(declaration.name) ? name : "{...}", declaration.type);
    for (const issue of converter.issues.slice(before)) {
      problems.push(
        issue.kind === "internal"
          ? {
              node: declaration,
              code: DiagnosticCode.internalError,
              message: `tool "${toolName}": toolwright failed to map \`${issue.path}\`: ${issue.construct}. Fix: ${issue.fix}.`,
            }
          : {
              node: issue.node ?? declaration,
              code: DiagnosticCode.unsupportedType,
              message: `tool "${toolName}": \`${issue.path}\` is ${issue.construct}, ${issue.reason ?? "which JSON cannot carry"}. Fix: ${issue.fix}.`,
            },
      );
    }
    if (S.isObjectBindingPattern(declaration.name)) {
      if (dataParameters > 1) {
        problems.push({
          node: declaration,
          code: DiagnosticCode.badSite,
          message: `tool "${toolName}": a destructured parameter must be the only parameter besides the ToolContext. Fix: give it a name (e.g. "args: Args") or merge the other parameters into it.`,
        });
        continue;
      }
      pattern = { node: declaration.name, schema };
      slots.push({ kind: "object" });
      continue;
    }
    if (S.isArrayBindingPattern(declaration.name)) {
      problems.push({
        node: declaration,
        code: DiagnosticCode.badSite,
        message: `tool "${toolName}": an array-destructured parameter has no name for the model. Fix: give it a name, e.g. "pair: [string, number]".`,
      });
      continue;
    }
    const inline = readDoc(declaration, S);
    const initial = declaration.initializer ? literalOf(declaration.initializer, S) : undefined;
    // The parameter's own comment wins over constraint tags written after its `@param`.
    const constrained = withDoc(schema, paramConstraints(doc, name));
    const documented = withDoc(constrained, inline, paramText(doc, name) ?? (inline.summary || undefined));
    properties[name] =
      initial?.ok && documented.default === undefined ? { ...documented, default: initial.value } : documented;
    if (!optional) required.push(name);
    slots.push({ kind: "arg", name });
    uncheckedIn(properties[name], name, declaration, toolName, problems);
  }

  const base = pattern
    ? destructured(pattern.node, pattern.schema, converter.defs, doc, backend)
    : objectSchema(properties, required);
  if (pattern) uncheckedIn(base, "{...}", pattern.node, toolName, problems);
  const defs = Object.keys(converter.defs).length > 0 ? { $defs: converter.defs } : {};
  uncheckedIn(defs, "", backend.signatureDeclaration(signature) as Node, toolName, problems);
  return { parameters: JSON.parse(JSON.stringify({ ...base, ...defs })) as JsonSchema, slots };
}
