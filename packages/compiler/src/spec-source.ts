import type { JsonSchema, SchemaSpec, ToolSpec } from "toolwright";
import { validatorSource } from "./validator/validator-source.js";

/**
 * The validator texts one render has written, by their options and schema JSON: a module of
 * many tools often repeats a parameter shape (`{ id: string }`), and its validator is then
 * generated once. Made per render, so a long-lived process (`gen --watch`, the lsp) keeps
 * none between runs.
 */
export class ValidatorTexts {
  private readonly texts = new Map<string, string | undefined>();

  /** As {@link validatorSource}, the text of an equal schema with the same options given again. */
  of(schema: JsonSchema, options: { issues?: boolean; read?: boolean; typescript: boolean }): string | undefined {
    const key = `${options.issues === false ? 0 : 1}${options.read === false ? 0 : 1}${options.typescript ? 1 : 0}${JSON.stringify(schema)}`;
    if (this.texts.has(key)) return this.texts.get(key);
    const text = validatorSource(schema, options);
    this.texts.set(key, text);
    return text;
  }
}

/**
 * The JavaScript text of a spec as every build path writes it (the transformer, esbuild,
 * Vite and `toolwright gen`): its JSON, plus the generated validators of its parameters
 * (`validator`) and of its output schema (`outputValidator`) when those schemas are inside
 * the generator's subset. A `schema<T>()` spec gets the validator of its `schema`, written as
 * for a tool's parameters (reader and issue collectors included). JSON.stringify of the result skips the functions, so the spec's
 * JSON is the same whether validators were generated or not. With `typescript` the
 * validators are written as TypeScript that strict type-checking accepts; `texts`, one
 * render's {@link ValidatorTexts}, generates each distinct schema's validator once.
 *
 * @example
 * ```ts
 * specSource(spec); // '{"$toolwright":1,"name":"get_weather",...,"validator":function(h){...}}'
 * ```
 */
export function specSource(
  spec: ToolSpec | SchemaSpec,
  space?: number,
  { typescript = false, texts = new ValidatorTexts() }: { typescript?: boolean; texts?: ValidatorTexts } = {},
): string {
  const json = JSON.stringify(spec, null, space);
  const validators: string[] = [];
  const checked = "$toolwrightSchema" in spec ? spec.schema : spec.parameters;
  const validator = texts.of(checked, { typescript });
  if (validator) validators.push(`"validator":${validator}`);
  // A wrong return value's message is for the tool's author, and rare: Ajv builds it.
  const output =
    "outputSchema" in spec &&
    spec.outputSchema &&
    texts.of(spec.outputSchema, { issues: false, read: false, typescript });
  if (output) validators.push(`"outputValidator":${output}`);
  if (validators.length === 0) return json;
  const indent = space ? `\n${" ".repeat(space)}` : "";
  return `${json.slice(0, json.lastIndexOf("}")).trimEnd()},${validators.map((v) => indent + v).join(",")}${space ? "\n" : ""}}`;
}
