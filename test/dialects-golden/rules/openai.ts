import { isObjectNode, nodes, typeList } from "./schema-nodes.js";

/** Keywords OpenAI strict mode documents, plus the structural ones every schema needs. */
const STRICT_KEYWORDS = new Set([
  "type",
  "description",
  "title",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "anyOf",
  "enum",
  "const",
  "$ref",
  "$defs",
  "pattern",
  "format",
  "multipleOf",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "minItems",
  "maxItems",
]);
const STRICT_FORMATS = new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]);
const STRICT_TYPES = new Set(["string", "number", "boolean", "integer", "object", "array", "null"]);

/** Root rule shared by every OpenAI-style tool: one object schema. */
export function checkOpenAiRoot(schema: Record<string, unknown>): string[] {
  return schema.type === "object" && !("anyOf" in schema) ? [] : ["root: must be type object and not anyOf"];
}

/**
 * OpenAI strict mode, from the Structured Outputs rules: closed objects with every key
 * required, only the documented keywords, types and formats, refs inside the document,
 * and the size limits.
 */
export function checkOpenAiStrict(schema: Record<string, unknown>): string[] {
  const problems = checkOpenAiRoot(schema);
  let properties = 0;
  let enumValues = 0;
  const defs = (schema.$defs ?? {}) as Record<string, unknown>;
  for (const { node, path, depth } of nodes(schema)) {
    for (const key of Object.keys(node)) {
      if (!STRICT_KEYWORDS.has(key)) problems.push(`${path}: keyword "${key}" is not supported in strict mode`);
    }
    for (const t of typeList(node)) if (!STRICT_TYPES.has(String(t))) problems.push(`${path}: type ${String(t)}`);
    if (typeof node.format === "string" && !STRICT_FORMATS.has(node.format))
      problems.push(`${path}: format ${node.format}`);
    if (isObjectNode(node)) {
      if (node.additionalProperties !== false) problems.push(`${path}: additionalProperties must be false`);
      const keys = Object.keys((node.properties ?? {}) as object);
      const required = new Set((node.required ?? []) as string[]);
      for (const k of keys) if (!required.has(k)) problems.push(`${path}: "${k}" missing from required`);
      properties += keys.length;
    }
    if (Array.isArray(node.enum)) enumValues += node.enum.length;
    if (typeof node.$ref === "string") {
      const m = /^#\/\$defs\/(.+)$/.exec(node.$ref);
      if (node.$ref !== "#" && !(m?.[1] && m[1] in defs)) problems.push(`${path}: $ref ${node.$ref} does not resolve`);
    }
    if (depth > 10) problems.push(`${path}: more than 10 levels of nesting`);
  }
  if (properties > 5000) problems.push(`${properties} properties (limit 5000)`);
  if (enumValues > 1000) problems.push(`${enumValues} enum values (limit 1000)`);
  return problems;
}
