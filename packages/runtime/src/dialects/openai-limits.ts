import { isNode, type NoteList, type SchemaNode } from "./walk.js";

/** Strict-mode size limits from OpenAI's Structured Outputs guide. */
export const OPENAI_STRICT_LIMITS = {
  properties: 5000,
  nesting: 10,
  characters: 120_000,
  enumValues: 1000,
  largeEnumSize: 250,
  largeEnumCharacters: 15_000,
} as const;

interface Tally {
  properties: number;
  depth: number;
  characters: number;
  enumValues: number;
}

function tally(node: SchemaNode, depth: number, t: Tally, notes: NoteList, path: string): void {
  t.depth = Math.max(t.depth, depth);
  if (isNode(node.properties)) {
    for (const [name, child] of Object.entries(node.properties)) {
      t.properties += 1;
      t.characters += name.length;
      if (isNode(child)) tally(child, depth + 1, t, notes, `${path}/properties/${name}`);
    }
  }
  if (isNode(node.$defs)) {
    for (const [name, child] of Object.entries(node.$defs)) {
      t.characters += name.length;
      if (isNode(child)) tally(child, depth, t, notes, `${path}/$defs/${name}`);
    }
  }
  const values = [...(Array.isArray(node.enum) ? node.enum : []), ...("const" in node ? [node.const] : [])];
  t.enumValues += Array.isArray(node.enum) ? node.enum.length : 0;
  const strings = values.filter((v): v is string => typeof v === "string");
  const size = strings.reduce((n, s) => n + s.length, 0);
  t.characters += size;
  if (strings.length > OPENAI_STRICT_LIMITS.largeEnumSize && size > OPENAI_STRICT_LIMITS.largeEnumCharacters) {
    notes.add(
      "error",
      "limit-enum-characters",
      path,
      `an enum of ${strings.length} strings may total at most ${OPENAI_STRICT_LIMITS.largeEnumCharacters} characters (has ${size})`,
    );
  }
  for (const key of ["items", "additionalProperties"]) {
    const child = node[key];
    if (isNode(child)) tally(child, depth + 1, t, notes, `${path}/${key}`);
  }
  for (const key of ["anyOf", "prefixItems"]) {
    const list = node[key];
    if (!Array.isArray(list)) continue;
    for (const [i, c] of list.entries()) if (isNode(c)) tally(c, depth, t, notes, `${path}/${key}/${i}`);
  }
}

/** Reports a strict-mode schema over OpenAI's size limits (properties, nesting, characters, enum values). */
export function checkOpenAiLimits(schema: SchemaNode, notes: NoteList): void {
  const t: Tally = { properties: 0, depth: 0, characters: 0, enumValues: 0 };
  tally(schema, 0, t, notes, "");
  const L = OPENAI_STRICT_LIMITS;
  if (t.properties > L.properties) {
    notes.add(
      "error",
      "limit-properties",
      "",
      `${t.properties} object properties in total; the limit is ${L.properties}`,
    );
  }
  if (t.depth > L.nesting) {
    notes.add("error", "limit-nesting", "", `${t.depth} levels of nesting; the limit is ${L.nesting}`);
  }
  if (t.characters > L.characters) {
    notes.add(
      "error",
      "limit-characters",
      "",
      `${t.characters} characters of names and values; the limit is ${L.characters}`,
    );
  }
  if (t.enumValues > L.enumValues) {
    notes.add("error", "limit-enum-values", "", `${t.enumValues} enum values in total; the limit is ${L.enumValues}`);
  }
}
