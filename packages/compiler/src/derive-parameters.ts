import type { JsonSchema, ParamSlot } from "toolwright";
import type ts from "typescript";
import { DiagnosticCode } from "./diagnostics.js";
import { type DocBlock, paramText, readDoc } from "./docs.js";
import { literalOf } from "./literal-value.js";
import type { ResolvedOptions } from "./options.js";
import { keywordsFromDoc, paramConstraints, withDoc } from "./schema/keywords.js";
import { includesUndefined, SchemaConverter } from "./schema/SchemaConverter.js";
import type { ToolwrightTypes } from "./toolwright-types.js";
import { TS } from "./typescript-host.js";

/** A problem found while deriving; turned into a diagnostic by the caller. */
export interface Problem {
  readonly node: ts.Node;
  readonly code: number;
  readonly message: string;
}

/** The arguments schema and the slot of every function parameter. */
export interface DerivedParameters {
  readonly parameters: JsonSchema;
  readonly slots: ParamSlot[];
}

interface Input {
  readonly checker: ts.TypeChecker;
  readonly types: ToolwrightTypes;
  readonly options: ResolvedOptions;
  readonly signature: ts.Signature;
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
  pattern: ts.ObjectBindingPattern,
  schema: JsonSchema,
  defs: Record<string, JsonSchema>,
  doc: DocBlock,
): JsonSchema {
  const ref = typeof schema.$ref === "string" ? schema.$ref.replace("#/$defs/", "") : undefined;
  const root = (ref ? defs[ref] : schema) ?? schema;
  const properties = { ...((root.properties ?? {}) as Record<string, JsonSchema>) };
  let required = Array.isArray(root.required) ? (root.required as string[]) : [];
  for (const element of pattern.elements) {
    const key = (element.propertyName ?? element.name).getText();
    const current = properties[key];
    if (!current) continue;
    const text = paramText(doc, key);
    const initial = element.initializer ? literalOf(element.initializer) : undefined;
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

/** The type to suggest for an unannotated parameter: the one TypeScript inferred, or `string` when it only sees `any`. */
function suggestedType(type: ts.Type, checker: ts.TypeChecker): string {
  return (type.flags & TS.TypeFlags.Any) !== 0
    ? "string"
    : checker.typeToString(checker.getBaseTypeOfLiteralType(type));
}

/**
 * Rules 2 and 3: one property per non-context parameter (in order), or the properties of
 * a single destructured parameter; `ToolContext` parameters become context slots.
 */
export function deriveParameters(input: Input, problems: Problem[]): DerivedParameters {
  const { checker, types, options, signature, doc, toolName } = input;
  const converter = new SchemaConverter(checker);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const slots: ParamSlot[] = [];
  let pattern: { node: ts.ObjectBindingPattern; schema: JsonSchema } | undefined;
  const dataParameters = signature.parameters.filter((symbol) => {
    return !types.hasBrand(checker.getTypeOfSymbol(symbol), "toolContextBrand");
  }).length;

  for (const symbol of signature.parameters) {
    const declaration = symbol.valueDeclaration;
    const type = checker.getTypeOfSymbol(symbol);
    if (types.hasBrand(type, "toolContextBrand")) {
      slots.push({ kind: "context" });
      continue;
    }
    if (!declaration || !TS.isParameter(declaration)) {
      problems.push({
        node: signature.getDeclaration(),
        code: DiagnosticCode.badSite,
        message: `tool "${toolName}": parameter "${symbol.getName()}" has no declaration to read. Fix: declare the function with named, typed parameters.`,
      });
      continue;
    }
    const name = TS.isIdentifier(declaration.name) ? declaration.name.text : symbol.getName();
    if (declaration.dotDotDotToken) {
      problems.push({
        node: declaration,
        code: DiagnosticCode.badSite,
        message: `tool "${toolName}": the rest parameter "...${name}" cannot be named in a JSON object. Fix: take an array parameter instead (e.g. "${name}: string[]").`,
      });
      continue;
    }
    if (!declaration.type && (options.requireAnnotations || (type.flags & TS.TypeFlags.Any) !== 0)) {
      problems.push({
        node: declaration,
        code: DiagnosticCode.missingAnnotation,
        message: `tool "${toolName}": parameter "${declaration.name.getText()}" has no type annotation, so its schema cannot be derived. Fix: annotate it, e.g. "${declaration.name.getText()}: ${suggestedType(type, checker)}".`,
      });
      continue;
    }
    const before = converter.issues.length;
    const schema = converter.convertRoot(type, TS.isIdentifier(declaration.name) ? name : "{...}", declaration.type);
    for (const issue of converter.issues.slice(before)) {
      problems.push(
        issue.kind === "internal"
          ? {
              node: declaration,
              code: DiagnosticCode.internalError,
              message: `tool "${toolName}": toolwright failed to map \`${issue.path}\`: ${issue.construct}. Fix: ${issue.fix}.`,
            }
          : {
              node: declaration,
              code: DiagnosticCode.unsupportedType,
              message: `tool "${toolName}": \`${issue.path}\` is ${issue.construct}, which JSON cannot carry. Fix: ${issue.fix}.`,
            },
      );
    }
    if (TS.isObjectBindingPattern(declaration.name)) {
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
    if (TS.isArrayBindingPattern(declaration.name)) {
      problems.push({
        node: declaration,
        code: DiagnosticCode.badSite,
        message: `tool "${toolName}": an array-destructured parameter has no name for the model. Fix: give it a name, e.g. "pair: [string, number]".`,
      });
      continue;
    }
    const inline = readDoc(declaration);
    const initial = declaration.initializer ? literalOf(declaration.initializer) : undefined;
    // The parameter's own comment wins over constraint tags written after its `@param`.
    const constrained = withDoc(schema, paramConstraints(doc, name));
    const documented = withDoc(constrained, inline, paramText(doc, name) ?? (inline.summary || undefined));
    properties[name] =
      initial?.ok && documented.default === undefined ? { ...documented, default: initial.value } : documented;
    if (!declaration.questionToken && !declaration.initializer && !includesUndefined(type)) required.push(name);
    slots.push({ kind: "arg", name });
  }

  const base = pattern
    ? destructured(pattern.node, pattern.schema, converter.defs, doc)
    : objectSchema(properties, required);
  const defs = Object.keys(converter.defs).length > 0 ? { $defs: converter.defs } : {};
  return { parameters: JSON.parse(JSON.stringify({ ...base, ...defs })) as JsonSchema, slots };
}
