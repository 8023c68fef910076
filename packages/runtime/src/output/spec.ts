/**
 * The contract between the compiler and the runtime for `schema<T>()`: what the
 * transformer writes as the call's last argument, and what `schema()` reads back.
 *
 * Bump {@link SCHEMA_SPEC_VERSION} on any change a runtime cannot read in the old form.
 */

import type { GeneratedValidator, JsonSchema, SourceLocation } from "../tools/spec.js";

/** The current format of {@link SchemaSpec}. */
export const SCHEMA_SPEC_VERSION = 1;

/**
 * The spec the compiler derives for one `schema<T>()` call, from `T`.
 *
 * What the compiler emits, exactly (every build path: the tspc transformer, esbuild, Vite,
 * `toolwright gen`, TypeScript 7), as an object literal appended after the call's
 * arguments (`schema<Answer>()` becomes `schema<Answer>(undefined, SPEC)`, and
 * `schema<Answer>({ name: "a" })` becomes `schema<Answer>({ name: "a" }, SPEC)`):
 *
 * ```js
 * {
 *   "$toolwrightSchema": 1,
 *   "name": "Answer",                  // the type's name, see below
 *   "description": "A weather report.", // the TSDoc summary of T's declaration; omitted when it has none
 *   "schema": { "type": "object", ... },// T's canonical JSON Schema
 *   "source": { "file": "src/agent.ts", "line": 12 },
 *   "validator": function (h, S) { ... } // validatorSource(schema): omitted outside its subset
 * }
 * ```
 *
 * - `T` is the call's type argument as the resolved signature instantiates it (written
 *   `schema<Answer>()`, or inferred from the context, as in `const s: Schema<Answer> = schema()`);
 *   an unresolved type parameter is the same build error as for a tool parameter.
 * - `schema` follows the rules of a tool parameter's type exactly (`Date` as a date-time
 *   string with `x-toolwright-date`, recursion through root `$defs`, member TSDoc as
 *   descriptions, constraint tags as keywords, objects closed unless an index signature
 *   opens them), except that its root may be any type (a string, an array, a union).
 * - `name` matches `^[a-zA-Z0-9_-]{1,64}$` (OpenAI's rule for `json_schema.name`): the
 *   name of the alias or interface `T` refers to, with any other character replaced by
 *   `_` and cut to 64; `"answer"` for an anonymous type.
 * - `validator` is what `validatorSource(schema)` writes for a tool's parameters (with the
 *   issue collectors; the runtime never calls its `read`).
 * - A `T` the build rejects (a function member, a `Map`, ...) is written as the
 *   `RejectedSpec` marker, as at a tool site: `schema()` then throws with its errors.
 */
export interface SchemaSpec {
  /** Marker and format version; tells a schema spec from options and from a tool's spec. */
  readonly $toolwrightSchema: typeof SCHEMA_SPEC_VERSION;
  /** What providers call the format (`json_schema.name`); `^[a-zA-Z0-9_-]{1,64}$`. */
  readonly name: string;
  /** The TSDoc summary of the type, sent with the schema where an API takes one. */
  readonly description?: string;
  /** Canonical JSON Schema (2020-12 keywords, `$defs` at the root) of the type. */
  readonly schema: JsonSchema;
  /** The `schema<T>()` call, for error messages. */
  readonly source: SourceLocation;
  /** Generated check of `schema` (absent when the schema is outside the generator's subset). */
  readonly validator?: GeneratedValidator;
}

/** True when `value` is a schema spec written by the toolwright compiler. */
export function isSchemaSpec(value: unknown): value is SchemaSpec {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { $toolwrightSchema?: unknown }).$toolwrightSchema === SCHEMA_SPEC_VERSION
  );
}

declare const compiledSchemaBrand: unique symbol;

/**
 * The type of `schema()`'s trailing parameter, which the compiler fills with a
 * {@link SchemaSpec}. The compiler finds `schema<T>()` sites by this brand on the resolved
 * signature (declared in this file, `output/spec.ts`), never by the function's name, as
 * it finds tool sites by `CompiledSpec`'s. Never pass it by hand.
 */
export type CompiledSchema = SchemaSpec & { readonly [compiledSchemaBrand]?: never };
