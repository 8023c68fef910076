import type { SchemaSpec } from "toolwright";
import { type Backend, SymbolFlag, type TsSymbol, type TsType, TypeFlag } from "./backend/backend.js";
import type { TypeNode } from "./backend/syntax.js";
import type { DeriveContext } from "./derive.js";
import type { Problem } from "./derive-parameters.js";
import { DiagnosticCode } from "./diagnostics.js";
import { docHost, readDoc } from "./docs.js";
import { literalProperty } from "./literal-value.js";
import { projectPath } from "./project-path.js";
import { SchemaConverter } from "./schema/SchemaConverter.js";
import { isLibSymbol } from "./schema/type-facts.js";
import { type SchemaSite, typeArgument } from "./sites.js";

/** What providers accept as a format's name (OpenAI's rule for `json_schema.name`). */
const FORMAT_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
/** The name of an answer whose type has none (an inline object, an array, a union). */
const ANONYMOUS = "answer";

/** The type argument as written (`schema<Report>()`), if it was. */
function writtenArgument(site: SchemaSite): TypeNode | undefined {
  return (site.node as { readonly typeArguments?: readonly TypeNode[] }).typeArguments?.[0];
}

/**
 * The declared type `T` names: the alias or interface written as the type argument
 * (`schema<Report>()`), else the one the type itself carries; none for a library type
 * (`Date`, `string[]`) or an anonymous one.
 */
function namedSymbol(type: TsType, written: TypeNode | undefined, backend: Backend): TsSymbol | undefined {
  const S = backend.syntax;
  let symbol: TsSymbol | undefined;
  if (written && S.isTypeReferenceNode(written)) {
    symbol = backend.symbolAtLocation(written.typeName);
    if (symbol && backend.symbolFlags(symbol) & SymbolFlag.Alias) symbol = backend.aliasedSymbol(symbol);
  } else if (!written) {
    const own = backend.symbolOfType(type);
    const declared = own && backend.symbolFlags(own) & (SymbolFlag.Interface | SymbolFlag.Class) ? own : undefined;
    symbol = backend.aliasOfType(type) ?? declared;
  }
  return symbol && !isLibSymbol(symbol, backend) ? symbol : undefined;
}

/** The type's name as a format name: other characters as `_`, cut to 64. */
function formatName(symbol: TsSymbol | undefined, backend: Backend): string {
  const name = symbol
    ? backend
        .symbolName(symbol)
        .replace(/[^a-zA-Z0-9_-]/g, "_")
        .slice(0, 64)
    : "";
  return name || ANONYMOUS;
}

/** The TSDoc summary of the symbol's first declaration. */
function summaryOf(symbol: TsSymbol | undefined, backend: Backend): string {
  const [declaration] = symbol ? backend.declarations(symbol) : [];
  return declaration ? readDoc(docHost(declaration, backend.syntax), backend.syntax).summary : "";
}

/** `schema<Report>()` as the call was written, for messages (long type arguments cut). */
function shownCall(written: TypeNode | undefined): string {
  const text = written?.getText().replace(/\s+/g, " ");
  if (text === undefined) return "schema()";
  return `schema<${text.length > 60 ? `${text.slice(0, 57)}...` : text}>()`;
}

/**
 * Derives the {@link SchemaSpec} of one `schema<T>()` call from `T`, by the rules of a tool
 * parameter's type (any root: an object, a list, a union). Problems are returned, never
 * thrown; `spec` is undefined when `T` cannot be known.
 */
export function deriveSchema(site: SchemaSite, ctx: DeriveContext): { spec?: SchemaSpec; problems: Problem[] } {
  const { backend } = ctx;
  const S = backend.syntax;
  const problems: Problem[] = [];
  const written = writtenArgument(site);
  const call = shownCall(written);
  const type = written ? backend.typeFromTypeNode(written) : typeArgument(site, backend);
  if (!type || (!written && backend.typeFlags(type) & (TypeFlag.Unknown | TypeFlag.Any))) {
    problems.push({
      node: site.node,
      code: DiagnosticCode.badSite,
      message: `schema() has no type argument, so there is no type to derive a schema from. Fix: write the answer's type, e.g. schema<Answer>(), or give the call one to infer (const answer: Schema<Answer> = schema()).`,
    });
    return { problems };
  }
  const nameOption = literalProperty(site.options, "name", S);
  if (nameOption.ok && (typeof nameOption.value !== "string" || !FORMAT_NAME.test(nameOption.value))) {
    problems.push({
      node: site.options ?? site.node,
      code: DiagnosticCode.badName,
      message: `${call}: the name ${JSON.stringify(nameOption.value)} is not one providers accept. Fix: use 1 to 64 letters, digits, "_" or "-", e.g. { name: "weather_report" }.`,
    });
  }
  const symbol = namedSymbol(type, written, backend);
  const name = formatName(symbol, backend);
  const converter = new SchemaConverter(backend);
  const root = converter.convertRoot(type, name, written);
  for (const issue of converter.issues) {
    problems.push(
      issue.kind === "internal"
        ? {
            node: site.node,
            code: DiagnosticCode.internalError,
            message: `${call}: toolwright failed to map \`${issue.path}\`: ${issue.construct}. Fix: ${issue.fix}.`,
          }
        : {
            node: site.node,
            code: DiagnosticCode.unsupportedType,
            message: `${call}: \`${issue.path}\` is ${issue.construct}, which JSON cannot carry. Fix: ${issue.fix}.`,
          },
    );
  }
  const defs = Object.keys(converter.defs).length > 0 ? { $defs: converter.defs } : {};
  const description = summaryOf(symbol, backend);
  const file = site.node.getSourceFile();
  const spec: SchemaSpec = {
    $toolwrightSchema: 1,
    name,
    ...(description ? { description } : {}),
    schema: JSON.parse(JSON.stringify({ ...root, ...defs })),
    source: {
      file: projectPath(ctx.rootDir, file.fileName),
      line: file.getLineAndCharacterOfPosition(site.node.getStart(file)).line + 1,
    },
  };
  return { spec, problems };
}
