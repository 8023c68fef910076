import { createRequire } from "node:module";
import type { Ajv2020, ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import type formatsPlugin from "ajv-formats";
import type { JsonSchema } from "../tools/spec.js";

// Ajv and ajv-formats (CommonJS, most of the runtime's size and load time) are required on
// the first schema compiled, not imported: a compiled tool's valid calls pass its generated
// validator and never load them (docs/adr/0008-generated-validators.md).
const load = createRequire(import.meta.url);

/**
 * The two Ajv instances of the process, one per `allErrors` setting. Options, and why:
 * - `allErrors`: the model gets every problem in one message, not one per round trip;
 *   the instance without it stops at the first problem, for arguments too large to list
 *   every problem of (a million wrong items would cost a second of error objects);
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
function makeAjv(allErrors: boolean): Ajv2020 {
  const { Ajv2020 } = load("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js");
  const formats = load("ajv-formats") as typeof formatsPlugin;
  const ajv = new Ajv2020({
    allErrors,
    verbose: true,
    ownProperties: true,
    strict: false,
    logger: false,
    validateSchema: false,
    // Schemas are compiled on first use, one by one; ids would make two tools clash.
    addUsedSchema: false,
  });
  // "fast" mode: the regular expressions, not the full RFC parsers; models send simple values.
  formats.default(ajv, { mode: "fast" });
  return ajv;
}

interface Instance {
  readonly ajv: Ajv2020;
  readonly cache: WeakMap<object, ValidateFunction>;
}

const instances = new Map<boolean, Instance>();

/** Made on first use: most processes never meet arguments large enough to need the first-problem one. */
function instance(allErrors: boolean): Instance {
  let made = instances.get(allErrors);
  if (!made) {
    made = { ajv: makeAjv(allErrors), cache: new WeakMap() };
    instances.set(allErrors, made);
  }
  return made;
}

/** A compiled schema: true when `value` fits; otherwise the raw Ajv errors (rendered by the feedback). */
export type SchemaCheck = (value: unknown) => readonly ErrorObject[] | undefined;

/**
 * The validator of `schema`, compiled on its first use and cached per schema object, so
 * an agent with 200 tools compiles only the ones the model calls. With `allErrors` false
 * it reports only the first problem found, and stops looking there.
 */
export function checkerFor(schema: JsonSchema, allErrors = true): SchemaCheck {
  const { ajv, cache } = instance(allErrors);
  let validate = cache.get(schema);
  if (!validate) {
    validate = ajv.compile(schema as Record<string, unknown>);
    cache.set(schema, validate);
  }
  const compiled = validate;
  return (value) => (compiled(value) ? undefined : [...(compiled.errors ?? [])]);
}

export type { ErrorObject };
