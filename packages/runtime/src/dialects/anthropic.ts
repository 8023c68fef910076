import type { JsonSchema } from "../tools/spec.js";
import type { SchemaDialect } from "./types.js";
import {
  asAnyOfAndArrays,
  checkRootObject,
  isNode,
  mapChildren,
  moveToDescription,
  NoteList,
  recursiveDefs,
  type SchemaNode,
  typesOf,
  withoutMeta,
} from "./walk.js";

const STRICT = "Anthropic strict tools";
const FORMATS = new Set(["date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"]);
/** What Anthropic's strict subset keeps (its SDK's transform); primitive enum/const are kept too. */
const KEPT = new Set([
  "type",
  "anyOf",
  "allOf",
  "$ref",
  "$defs",
  "description",
  "title",
  "properties",
  "required",
  "additionalProperties",
  "format",
  "items",
  "minItems",
  "enum",
  "const",
]);

function isPrimitive(v: unknown): boolean {
  return v === null || ["string", "number", "boolean"].includes(typeof v);
}

function rewriteStrict(node: SchemaNode, path: string, notes: NoteList): SchemaNode {
  let out = mapChildren(node, path, (child, p) => rewriteStrict(child, p, notes));
  out = asAnyOfAndArrays(out, path, notes, STRICT);
  if (typeof out.format === "string" && !FORMATS.has(out.format))
    out = moveToDescription(out, ["format"], path, notes, STRICT);
  if (typeof out.minItems === "number" && out.minItems > 1)
    out = moveToDescription(out, ["minItems"], path, notes, STRICT);
  const values = [...(Array.isArray(out.enum) ? out.enum : []), ...("const" in out ? [out.const] : [])];
  if (!values.every(isPrimitive)) {
    notes.add("error", "enum-not-primitive", path, `${STRICT} take only string, number, boolean or null enum values`);
  }
  out = moveToDescription(
    out,
    Object.keys(out).filter((k) => !KEPT.has(k)),
    path,
    notes,
    STRICT,
  );
  if (typesOf(out).includes("object") || isNode(out.properties)) {
    if (isNode(out.additionalProperties) || out.additionalProperties === true) {
      notes.add(
        "error",
        "open-object",
        path,
        `${STRICT} force additionalProperties: false, so a Record or index signature cannot be sent; use non-strict Anthropic`,
      );
    }
    out.additionalProperties = false;
  }
  return out;
}

/**
 * Anthropic `input_schema` with `strict: true`: only the keywords its strict subset keeps
 * (others moved into the description), objects closed, `oneOf` as `anyOf`. Optional keys
 * stay optional. Recursion is reported as a warning (documented as unsupported by a
 * third-party summary, not by Anthropic).
 */
export const anthropicStrictDialect: SchemaDialect = {
  name: "anthropic-strict",
  toDialect(schema: JsonSchema) {
    const notes = new NoteList();
    checkRootObject(schema, notes, STRICT);
    for (const name of recursiveDefs(schema)) {
      notes.add(
        "warning",
        "recursive-ref",
        name === "#" ? "" : `/$defs/${name}`,
        `${STRICT} may reject recursive schemas`,
      );
    }
    return { schema: rewriteStrict(withoutMeta(schema), "", notes), notes: notes.notes };
  },
  check(schema) {
    return this.toDialect(schema).notes.filter((n) => n.severity !== "info");
  },
};

/** Anthropic `input_schema` without strict mode: any JSON Schema whose root is an object. */
export const anthropicDialect: SchemaDialect = {
  name: "anthropic",
  toDialect(schema: JsonSchema) {
    const notes = new NoteList();
    checkRootObject(schema, notes, "Anthropic input_schema");
    return { schema: withoutMeta(schema), notes: notes.notes };
  },
  check(schema) {
    return this.toDialect(schema).notes.filter((n) => n.severity !== "info");
  },
};
