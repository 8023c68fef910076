// The schema walk of the JSON Schema targets. It is its own, not dialects/walk.ts: the
// providers load that module lazily, and one static import of it from here (the root
// entry) would put all of it in the core bundle for every program (esbuild assigns a module
// to the chunks of every entry that imports it, used or not), where the targets cost nothing.

/** A schema object (not an array, not `true`/`false`). */
export type SchemaObject = Record<string, unknown>;

/** True for a schema object. */
export function isSchemaObject(value: unknown): value is SchemaObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Keywords holding one subschema, a list of them, or a map of names to them (2020-12 and draft-07). */
const ONE = [
  "items",
  "additionalItems",
  "additionalProperties",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
  "contains",
];
const LIST = ["anyOf", "oneOf", "allOf", "prefixItems", "items"];
const NAMED = ["properties", "$defs", "definitions", "patternProperties", "dependentSchemas"];

/** One JSON Pointer segment, escaped. */
function segment(key: string): string {
  return key.replaceAll("~", "~0").replaceAll("/", "~1");
}

/**
 * A copy of `node` with each direct subschema replaced by `visit(child, path)`, and without
 * the runtime's own `x-toolwright-date` (the `date-time` format says it to everyone else).
 */
export function mapSubschemas(
  node: SchemaObject,
  path: string,
  visit: (child: SchemaObject, path: string) => SchemaObject,
): SchemaObject {
  const out: SchemaObject = {};
  for (const [key, value] of Object.entries(node)) {
    const at = `${path}/${segment(key)}`;
    if (key === "x-toolwright-date") continue;
    if (ONE.includes(key) && isSchemaObject(value)) out[key] = visit(value, at);
    else if (LIST.includes(key) && Array.isArray(value))
      out[key] = value.map((child, i) => (isSchemaObject(child) ? visit(child, `${at}/${i}`) : child));
    else if (NAMED.includes(key) && isSchemaObject(value))
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, child]) => [
          name,
          isSchemaObject(child) ? visit(child, `${at}/${segment(name)}`) : child,
        ]),
      );
    else out[key] = value;
  }
  return out;
}

/** `"#/$defs/Name"` (or `#/definitions/Name`) -> `"Name"`; `undefined` for any other reference. */
export function definitionName(ref: string): string | undefined {
  const m = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(ref);
  return m?.[1]?.replaceAll("~1", "/").replaceAll("~0", "~");
}
