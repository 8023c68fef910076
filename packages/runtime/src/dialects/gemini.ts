import type { JsonSchema } from "../tools/spec.js";
import type { SchemaDialect } from "./types.js";
import { checkRootObject, mapChildren, moveToDescription, NoteList, type SchemaNode, withoutMeta } from "./walk.js";

const TARGET = "Gemini parametersJsonSchema";
/** Keys Gemini's JSON Schema field is known to take; the rest is moved into the description. */
const KEPT = new Set([
  "$id",
  "$defs",
  "$ref",
  "$anchor",
  "type",
  "format",
  "title",
  "description",
  "enum",
  "items",
  "prefixItems",
  "minimum",
  "maximum",
  "anyOf",
  "oneOf",
  "properties",
  "additionalProperties",
  "required",
  "propertyOrdering",
  "minItems",
  "maxItems",
]);

function rewrite(node: SchemaNode, path: string, notes: NoteList): SchemaNode {
  let out = mapChildren(node, path, (child, p) => rewrite(child, p, notes));
  if ("const" in out && !("enum" in out)) {
    // const is not on Gemini's list; a one-value enum says the same thing.
    out.enum = [out.const];
    delete out.const;
  }
  out = moveToDescription(
    out,
    Object.keys(out).filter((k) => !KEPT.has(k)),
    path,
    notes,
    TARGET,
  );
  return out;
}

/**
 * Gemini `parametersJsonSchema` (v1beta): plain JSON Schema with `$defs`/`$ref`, limited to
 * the keys Gemini is known to accept; `minLength`, `maxLength`, `default` and the like are
 * moved into the description because they have caused INVALID_ARGUMENT.
 */
export const geminiDialect: SchemaDialect = {
  name: "gemini",
  toDialect(schema: JsonSchema) {
    const notes = new NoteList();
    checkRootObject(schema, notes, TARGET);
    return { schema: rewrite(withoutMeta(schema), "", notes), notes: notes.notes };
  },
  check(schema) {
    return this.toDialect(schema).notes.filter((n) => n.severity !== "info");
  },
};
