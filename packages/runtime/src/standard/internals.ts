// What the runtime's own readers of a typed answer need of a schema toolwright made, kept
// apart from standard/schema.ts: the answer's code loads lazily, and importing that module
// from it would put the schema's whole code (Standard Schema, the JSON Schema targets) in the
// core bundle of every program (esbuild gives a module to every entry that reaches it).

import type { GeneratedValidator, JsonSchema } from "../tools/spec.js";
import type { ValueCheck } from "../validation/check-value.js";

/** A schema's own check, for a reader that holds the value already. */
export interface SchemaInternals {
  readonly schema: JsonSchema;
  readonly validator: GeneratedValidator | undefined;
  /** The value checked (parsed JSON, the reader's own), its problems reported under `base`. */
  checkAt(value: unknown, base: string): ValueCheck;
}

const internals = new WeakMap<object, SchemaInternals>();

/** Records what `schema`'s readers use. */
export function setSchemaInternals(schema: object, parts: SchemaInternals): void {
  internals.set(schema, parts);
}

/** What a schema made by toolwright checks values with; `undefined` for any other schema. */
export function schemaInternalsOf(schema: object): SchemaInternals | undefined {
  return internals.get(schema);
}
