import type { JsonSchema } from "toolwright";
import type { DocBlock, DocTag } from "../docs.js";

type Kind = "number" | "string" | "flag" | "json";

/** Constraint tags and the JSON Schema keyword each becomes. */
const CONSTRAINT_TAGS: Readonly<Record<string, Kind>> = {
  minimum: "number",
  maximum: "number",
  exclusiveMinimum: "number",
  exclusiveMaximum: "number",
  multipleOf: "number",
  minLength: "number",
  maxLength: "number",
  minItems: "number",
  maxItems: "number",
  minProperties: "number",
  maxProperties: "number",
  pattern: "string",
  format: "string",
  title: "string",
  uniqueItems: "flag",
  deprecated: "flag",
  default: "json",
};

function parseJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/**
 * The schema keywords a TSDoc block asks for: constraint tags, `@default`, `@example`
 * (collected into `examples`) and `@asType integer`. `description` is left to the caller.
 */
export function keywordsFromDoc(doc: DocBlock): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const examples: unknown[] = [];
  for (const { tag, value } of doc.tags) {
    const kind = CONSTRAINT_TAGS[tag];
    if (kind === "number") {
      if (value !== "" && Number.isFinite(Number(value))) out[tag] = Number(value);
    } else if (kind === "string") out[tag] = value;
    else if (kind === "flag") out[tag] = value === "" ? true : value === "true";
    else if (kind === "json") out[tag] = parseJson(value);
    else if (tag === "example") examples.push(parseJson(value));
  }
  if (examples.length > 0) out.examples = examples;
  return out;
}

/** Tags that constrain a value: they may follow a `@param` line and then apply to that parameter. */
const VALUE_CONSTRAINTS = new Set(
  Object.entries(CONSTRAINT_TAGS)
    .filter(([tag, kind]) => (kind === "number" || kind === "string" || tag === "uniqueItems") && tag !== "title")
    .map(([tag]) => tag),
);

/**
 * The constraint tags written after `@param name` and before the next `@param`:
 * `@param guests How many. @minimum 1` (or `@minimum 1` on the next line) constrains
 * `guests`. Other tags there (`@example`, `@default`, flags) keep their function-level meaning.
 */
export function paramConstraints(doc: DocBlock, name: string): DocBlock {
  const tags: DocTag[] = [];
  let inParam = false;
  for (const tag of doc.tags) {
    if (tag.tag === "param") inParam = tag.name.replace(/^\[|\]$/g, "").split("=")[0] === name;
    else if (inParam && VALUE_CONSTRAINTS.has(tag.tag)) tags.push(tag);
  }
  return { summary: "", tags };
}

/** Applies `@asType integer` (or `number`/`string`) to a schema whose type is `number`. */
export function applyAsType(schema: JsonSchema, doc: DocBlock): JsonSchema {
  const asType = doc.tags.find((t) => t.tag === "asType")?.value;
  if (!asType) return schema;
  if (schema.type === "number") return { ...schema, type: asType };
  if (Array.isArray(schema.type)) {
    return { ...schema, type: schema.type.map((t: unknown) => (t === "number" ? asType : t)) };
  }
  return schema;
}

/** Merges a documented element's description and keywords onto its schema. */
export function withDoc(schema: JsonSchema, doc: DocBlock, description?: string): JsonSchema {
  const text = description ?? doc.summary;
  return {
    ...applyAsType(schema, doc),
    ...(text ? { description: text } : {}),
    ...keywordsFromDoc(doc),
  };
}
