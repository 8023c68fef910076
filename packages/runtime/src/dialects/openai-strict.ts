import type { JsonSchema } from "../tools/spec.js";
import { checkOpenAiLimits } from "./openai-limits.js";
import type { SchemaDialect } from "./types.js";
import {
  asAnyOfAndArrays,
  checkRootObject,
  isNode,
  mapChildren,
  moveToDescription,
  NoteList,
  type SchemaNode,
  typesOf,
  withoutMeta,
} from "./walk.js";

const TARGET = "OpenAI strict mode";
/** Formats strict mode accepts on strings. */
const FORMATS = new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]);
/** Keywords strict mode accepts; everything else is moved into the description or refused. */
const KEPT = new Set([
  "type",
  "description",
  "title",
  "enum",
  "const",
  "anyOf",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "minItems",
  "maxItems",
  "pattern",
  "format",
  "multipleOf",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "$ref",
  "$defs",
]);
/** Structural keywords with no faithful rewrite: the schema cannot go to strict mode. */
const REFUSED = ["allOf", "not", "if", "then", "else", "dependentRequired", "dependentSchemas"];

/** Makes `node` accept `null` as well, the way strict mode spells "optional". */
export function nullable(node: SchemaNode): SchemaNode {
  const types = typesOf(node);
  if (types.includes("null") || node.const === null) return node;
  if ("$ref" in node || "anyOf" in node || types.length === 0) {
    const { description, ...rest } = node;
    const anyOf = Array.isArray(node.anyOf) && Object.keys(rest).length === 1 ? [...node.anyOf] : [rest];
    return { ...(description === undefined ? {} : { description }), anyOf: [...anyOf, { type: "null" }] };
  }
  const out: SchemaNode = { ...node, type: [...types, "null"] };
  if (Array.isArray(node.enum)) out.enum = [...node.enum, null];
  if ("const" in node) {
    delete out.const;
    out.enum = [node.const, null];
  }
  return out;
}

function rewrite(node: SchemaNode, path: string, notes: NoteList): SchemaNode {
  let out = mapChildren(node, path, (child, p) => rewrite(child, p, notes));
  for (const key of REFUSED) {
    if (key in out) notes.add("error", "keyword-unsupported", path, `${TARGET} does not support "${key}"; use anyOf`);
  }
  out = asAnyOfAndArrays(out, path, notes, TARGET);
  if (typeof out.format === "string" && !FORMATS.has(out.format))
    out = moveToDescription(out, ["format"], path, notes, TARGET);
  out = moveToDescription(
    out,
    Object.keys(out).filter((k) => !KEPT.has(k) && !REFUSED.includes(k)),
    path,
    notes,
    TARGET,
  );
  if (typesOf(out).includes("object") || isNode(out.properties)) out = closeObject(out, path, notes);
  return out;
}

/** Every key required, the optional ones nullable, and no other keys allowed. */
function closeObject(node: SchemaNode, path: string, notes: NoteList): SchemaNode {
  const properties = isNode(node.properties) ? node.properties : {};
  if (isNode(node.additionalProperties) || node.additionalProperties === true) {
    notes.add(
      "error",
      "open-object",
      path,
      `${TARGET} needs additionalProperties: false; a Record or index signature cannot be sent. ` +
        "Use an array of { key, value } objects, or target non-strict OpenAI",
    );
  }
  const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
  const optional = Object.keys(properties).filter((k) => !required.has(k));
  const out: SchemaNode = {
    ...node,
    properties: Object.fromEntries(
      Object.entries(properties).map(([k, v]) => [k, required.has(k) || !isNode(v) ? v : nullable(v)]),
    ),
    required: Object.keys(properties),
    additionalProperties: false,
  };
  if (optional.length > 0) {
    notes.add("info", "optional-as-nullable", path, `optional ${optional.join(", ")} sent as required and nullable`);
  }
  return out;
}

/**
 * OpenAI strict mode (Structured Outputs subset): every key required with the optional ones
 * made nullable (the runtime drops those nulls before validation), unsupported keywords moved
 * into the description, and the limits checked.
 *
 * @example
 * ```ts
 * const { schema, notes } = openAiStrictDialect.toDialect(tool.parameters);
 * ```
 */
export const openAiStrictDialect: SchemaDialect = {
  name: "openai-strict",
  toDialect(schema: JsonSchema) {
    const notes = new NoteList();
    checkRootObject(schema, notes, TARGET);
    const out = rewrite(withoutMeta(schema), "", notes);
    checkOpenAiLimits(out, notes);
    return { schema: out, notes: notes.notes };
  },
  check(schema) {
    return this.toDialect(schema).notes.filter((n) => n.severity !== "info");
  },
};
