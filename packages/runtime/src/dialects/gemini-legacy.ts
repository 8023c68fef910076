import type { JsonSchema } from "../tools/spec.js";
import type { SchemaDialect } from "./types.js";
import {
  checkRootObject,
  isNode,
  moveToDescription,
  NoteList,
  pointer,
  recursiveDefs,
  refName,
  type SchemaNode,
  tupleAsArray,
  typesOf,
  withoutMeta,
} from "./walk.js";

const TARGET = "Gemini parameters (OpenAPI subset)";
/** Fields of Gemini's legacy `Schema` message; any other key is a 400 "Unknown name". */
export const GEMINI_SCHEMA_FIELDS = new Set([
  "type",
  "format",
  "title",
  "description",
  "nullable",
  "enum",
  "items",
  "properties",
  "required",
  "propertyOrdering",
  "minimum",
  "maximum",
  "pattern",
  "default",
  "example",
  "anyOf",
  "minItems",
  "maxItems",
  "minLength",
  "maxLength",
  "minProperties",
  "maxProperties",
]);
/** Formats the legacy schema documents, per type. */
const FORMATS: Record<string, readonly string[]> = {
  STRING: ["enum", "date-time"],
  INTEGER: ["int32", "int64"],
  NUMBER: ["float", "double"],
};
const INT64 = ["minItems", "maxItems", "minLength", "maxLength", "minProperties", "maxProperties"];

interface Context {
  readonly defs: Record<string, unknown>;
  readonly recursive: Set<string>;
  readonly notes: NoteList;
}

function upper(t: string): string {
  return t.toUpperCase();
}

function convert(input: SchemaNode, path: string, ctx: Context): SchemaNode {
  let node = input;
  if (typeof node.$ref === "string") {
    const name = refName(node.$ref);
    const target = name === undefined ? undefined : ctx.defs[name];
    if (name === undefined || ctx.recursive.has(name) || !isNode(target)) {
      ctx.notes.add(
        "error",
        "recursive-ref",
        path,
        `${TARGET} has no $ref and toolwright inlines only non-recursive definitions; ` +
          `"${node.$ref}" is recursive or unresolvable. Target "gemini" (parametersJsonSchema) instead`,
      );
      return { type: "OBJECT", description: `see ${node.$ref}` };
    }
    const { $ref: _r, ...siblings } = node;
    node = { ...target, ...siblings };
  }
  let out: SchemaNode = {};
  let nullable = false;
  // Type arrays become nullable (for null) plus anyOf (for more than one other type).
  const types = typesOf(node).filter((t) => {
    if (t === "null") nullable = true;
    return t !== "null";
  });
  const branches = [
    ...(Array.isArray(node.anyOf) ? node.anyOf : []),
    ...(Array.isArray(node.oneOf) ? node.oneOf : []),
  ].filter((b) => {
    if (isNode(b) && b.type === "null" && Object.keys(b).length === 1) nullable = true;
    else return true;
    return false;
  });
  if (Array.isArray(node.allOf)) ctx.notes.add("error", "keyword-unsupported", path, `${TARGET} has no allOf`);
  if (types.length > 1) {
    out.anyOf = types.map((t) => ({ type: upper(t) }));
  } else if (types.length === 1) {
    out.type = upper(types[0] as string);
  }
  if (branches.length === 1 && isNode(branches[0])) {
    out = { ...out, ...convert(branches[0], pointer(path, "anyOf", 0), ctx) };
  } else if (branches.length > 1) {
    out.anyOf = branches.map((b, i) => (isNode(b) ? convert(b, pointer(path, "anyOf", i), ctx) : b));
  }
  const values = "const" in node ? [node.const] : Array.isArray(node.enum) ? node.enum : undefined;
  if (values !== undefined) {
    if (values.includes(null)) nullable = true;
    const present = values.filter((v) => v !== null);
    if (!present.every((v) => typeof v === "string")) {
      // Only string enums exist here; the model's "1" is coerced back to 1 before validation.
      ctx.notes.add("info", "enum-as-strings", path, `${TARGET} takes string enums only: values sent as strings`);
    }
    out.type = "STRING";
    out.enum = present.map((v) => (typeof v === "string" ? v : JSON.stringify(v)));
  }
  if (isNode(node.properties)) {
    out.properties = Object.fromEntries(
      Object.entries(node.properties).map(([k, v]) => [
        k,
        isNode(v) ? convert(v, pointer(path, "properties", k), ctx) : v,
      ]),
    );
    out.type ??= "OBJECT";
  }
  if (Array.isArray(node.required) && node.required.length > 0) out.required = node.required;
  if (isNode(node.items)) out.items = convert(node.items, pointer(path, "items"), ctx);
  if (Array.isArray(node.prefixItems)) {
    const array = tupleAsArray(node);
    if (isNode(array.items)) out.items = convert(array.items, pointer(path, "prefixItems"), ctx);
    for (const key of ["minItems", "maxItems"]) if (typeof array[key] === "number") out[key] = String(array[key]);
    ctx.notes.add("info", "tuple-as-array", path, `${TARGET} has no tuples: sent as an array of its element types`);
  }
  if (isNode(node.additionalProperties)) {
    ctx.notes.add(
      "warning",
      "open-object",
      path,
      `${TARGET} has no additionalProperties: a Record's value type is not sent, only described`,
    );
  }
  for (const key of ["title", "description", "pattern", "minimum", "maximum", "default"]) {
    if (key in node) out[key] = node[key];
  }
  for (const key of INT64) if (typeof node[key] === "number") out[key] = String(node[key]);
  if (Array.isArray(node.examples) && node.examples.length > 0) out.example = node.examples[0];
  if (typeof node.format === "string") {
    const allowed = FORMATS[typeof out.type === "string" ? out.type : ""] ?? [];
    if (allowed.includes(node.format)) out.format = node.format;
    else
      out = {
        ...out,
        ...moveToDescription(
          { format: node.format, description: out.description },
          ["format"],
          path,
          ctx.notes,
          TARGET,
        ),
      };
  }
  if (nullable) out.nullable = true;
  const leftovers = Object.keys(node).filter((k) => !GEMINI_SCHEMA_FIELDS.has(k) && !HANDLED.has(k));
  const moved = moveToDescription(
    { ...pick(node, leftovers), description: out.description },
    leftovers,
    path,
    ctx.notes,
    TARGET,
  );
  if (moved.description !== undefined) out.description = moved.description;
  return out;
}

/** Canonical keywords `convert` rewrites itself (so they are not "moved"). */
const HANDLED = new Set([
  "$ref",
  "$defs",
  "definitions",
  "oneOf",
  "allOf",
  "const",
  "prefixItems",
  "additionalProperties",
  "examples",
]);

function pick(node: SchemaNode, keys: readonly string[]): SchemaNode {
  return Object.fromEntries(keys.map((k) => [k, node[k]]));
}

/**
 * Gemini's legacy `parameters` field (an OpenAPI 3.0 subset): upper-case types, no `$ref`
 * (non-recursive definitions are inlined, recursion is an error), type arrays and
 * `{type:"null"}` branches as `nullable`, string-only enums, integer limits as strings,
 * everything else moved into the description.
 */
export const geminiLegacyDialect: SchemaDialect = {
  name: "gemini-legacy",
  toDialect(schema: JsonSchema) {
    const notes = new NoteList();
    checkRootObject(schema, notes, TARGET);
    const defs = isNode(schema.$defs) ? schema.$defs : isNode(schema.definitions) ? schema.definitions : {};
    const out = convert(withoutMeta(schema), "", { defs, recursive: recursiveDefs(schema), notes });
    return { schema: out, notes: notes.notes };
  },
  check(schema) {
    return this.toDialect(schema).notes.filter((n) => n.severity !== "info");
  },
};
