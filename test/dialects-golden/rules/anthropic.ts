import { isObjectNode, nodes } from "./schema-nodes.js";

/** What Anthropic's strict subset keeps (its SDK's transform), with primitive enum/const. */
const STRICT_KEYWORDS = new Set([
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
const STRICT_FORMATS = new Set([
  "date-time",
  "time",
  "date",
  "duration",
  "email",
  "hostname",
  "uri",
  "ipv4",
  "ipv6",
  "uuid",
]);

/** `input_schema.type` must be "object". */
export function checkAnthropic(schema: Record<string, unknown>): string[] {
  return schema.type === "object" ? [] : ['input_schema.type must be "object"'];
}

/** Anthropic strict tools: only the kept keywords, objects closed, minItems 0 or 1, known formats, primitive enums. */
export function checkAnthropicStrict(schema: Record<string, unknown>): string[] {
  const problems = checkAnthropic(schema);
  for (const { node, path } of nodes(schema)) {
    for (const key of Object.keys(node)) {
      if (!STRICT_KEYWORDS.has(key)) problems.push(`${path}: keyword "${key}" is not in the strict subset`);
    }
    if (isObjectNode(node) && node.additionalProperties !== false)
      problems.push(`${path}: additionalProperties must be false`);
    if (node.minItems !== undefined && node.minItems !== 0 && node.minItems !== 1)
      problems.push(`${path}: minItems > 1`);
    if (typeof node.format === "string" && !STRICT_FORMATS.has(node.format))
      problems.push(`${path}: format ${node.format}`);
    const values = [...((node.enum as unknown[] | undefined) ?? []), ...("const" in node ? [node.const] : [])];
    if (values.some((v) => typeof v === "object" && v !== null)) problems.push(`${path}: non-primitive enum`);
  }
  return problems;
}
