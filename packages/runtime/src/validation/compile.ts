import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import formatsPlugin from "ajv-formats";
import type { JsonSchema } from "../spec.js";

/**
 * The one Ajv instance of the process. Options, and why:
 * - `allErrors`: the model gets every problem in one message, not one per round trip;
 * - `verbose`: errors carry the failing sub-schema and value, which the feedback renders;
 * - `ownProperties`: a key named `constructor` or `toString` is present only when sent;
 * - `strict: false`: compiler-written keywords such as `$comment` or vendor extensions,
 *   and unknown formats, are ignored instead of throwing;
 * - `logger: false`: an unknown format is not worth a console line on every first call;
 * - `validateSchema: false`: checking a schema against the 2020-12 meta-schema first
 *   compiles the meta-schema itself, about 40 times the cost of compiling a tool's schema
 *   (docs/adr/0002-lazy-validation.md). The compiler already checked its schemas; a broken
 *   hand-written one still fails to compile, as a ToolDefinitionError.
 */
const ajv = new Ajv2020({
  allErrors: true,
  verbose: true,
  ownProperties: true,
  strict: false,
  logger: false,
  validateSchema: false,
  // Schemas are compiled on first use, one by one; ids would make two tools clash.
  addUsedSchema: false,
});
// "fast" mode: the regular expressions, not the full RFC parsers; models send simple values.
formatsPlugin.default(ajv, { mode: "fast" });

/** A compiled schema: true when `value` fits; otherwise the raw Ajv errors (rendered by the feedback). */
export type SchemaCheck = (value: unknown) => readonly ErrorObject[] | undefined;

const cache = new WeakMap<object, ValidateFunction>();

/**
 * The validator of `schema`, compiled on its first use and cached per schema object, so
 * an agent with 200 tools compiles only the ones the model calls.
 */
export function checkerFor(schema: JsonSchema): SchemaCheck {
  let validate = cache.get(schema);
  if (!validate) {
    validate = ajv.compile(schema as Record<string, unknown>);
    cache.set(schema, validate);
  }
  const compiled = validate;
  return (value) => (compiled(value) ? undefined : [...(compiled.errors ?? [])]);
}

export type { ErrorObject };
