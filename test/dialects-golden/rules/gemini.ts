import { nodes } from "./schema-nodes.js";

/** Keys Gemini's `parametersJsonSchema` is known to take (provider sheet, section 5). */
const JSON_SCHEMA_KEYS = new Set([
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

/** Gemini `parametersJsonSchema`: only the known keys (minLength, maxLength, default, $schema caused INVALID_ARGUMENT). */
export function checkGeminiJsonSchema(schema: Record<string, unknown>): string[] {
  const problems = schema.type === "object" ? [] : ["root must be an object"];
  for (const { node, path } of nodes(schema)) {
    for (const key of Object.keys(node)) if (!JSON_SCHEMA_KEYS.has(key)) problems.push(`${path}: unknown key "${key}"`);
  }
  return problems;
}

/** Fields of the legacy `Schema` proto message. */
const LEGACY_FIELDS = new Set([
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
const LEGACY_TYPES = new Set(["STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL"]);
const INT64 = ["minItems", "maxItems", "minLength", "maxLength", "minProperties", "maxProperties"];

/**
 * Gemini legacy `parameters`: proto fields only (a 400 "Unknown name" otherwise), one
 * upper-case type (never a list), string-only enums, int64 limits as strings, and no
 * $ref/$defs/oneOf/allOf/additionalProperties/const anywhere.
 */
export function checkGeminiLegacy(schema: Record<string, unknown>): string[] {
  const problems = schema.type === "OBJECT" ? [] : ["root must be OBJECT"];
  for (const { node, path } of nodes(schema)) {
    for (const key of Object.keys(node)) if (!LEGACY_FIELDS.has(key)) problems.push(`${path}: unknown field "${key}"`);
    if (node.type !== undefined && !(typeof node.type === "string" && LEGACY_TYPES.has(node.type))) {
      problems.push(`${path}: type ${JSON.stringify(node.type)} is not one Type value`);
    }
    if (Array.isArray(node.enum) && !node.enum.every((v) => typeof v === "string")) {
      problems.push(`${path}: enum values must be strings`);
    }
    for (const key of INT64) {
      if (key in node && typeof node[key] !== "string") problems.push(`${path}: ${key} must be an int64 string`);
    }
  }
  return problems;
}
