import type { JsonSchema } from "../tools/spec.js";

/** The JSON types a value can have, as JSON Schema names them. */
export type JsonType = "string" | "number" | "integer" | "boolean" | "object" | "array" | "null";

const own = Object.hasOwn;

function asSchema(value: unknown): JsonSchema | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as JsonSchema) : undefined;
}

/**
 * Follows a local `$ref` (`#/$defs/Name`, or any `#/...` pointer) within `root`; chains of
 * refs are followed a few times, then given up on (a cycle of bare refs has no meaning).
 */
export function resolve(schema: JsonSchema, root: JsonSchema): JsonSchema {
  let current = schema;
  for (let hops = 0; hops < 8 && typeof current.$ref === "string"; hops++) {
    const ref = current.$ref as string;
    if (!ref.startsWith("#")) return current;
    let target: unknown = root;
    for (const raw of ref.slice(1).split("/").slice(1)) {
      const key = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
      const parent = asSchema(target);
      target = parent && own(parent, key) ? parent[key] : undefined;
    }
    const next = asSchema(target);
    if (!next) return current;
    current = next;
  }
  return current;
}

/** The branches of an `anyOf` / `oneOf`, resolved; empty when the schema has none. */
export function branches(schema: JsonSchema, root: JsonSchema): JsonSchema[] {
  const list = (
    Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : []
  ) as unknown[];
  return list.flatMap((b) => {
    const s = asSchema(b);
    return s ? [resolve(s, root)] : [];
  });
}

/** The JSON type of a parsed value (integers are told apart from other numbers). */
export function typeOfValue(value: unknown): JsonType {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value as JsonType;
}

/**
 * Every JSON type the schema admits, or `undefined` when it does not restrict types (then
 * nothing may be coerced). Looks through `$ref`, `anyOf`/`oneOf`, `enum` and `const`.
 */
export function typesOf(schema: JsonSchema, root: JsonSchema): ReadonlySet<JsonType> | undefined {
  return memo(typesKnown, schema, root, typesOfNode) ?? undefined;
}

type Memo<T> = WeakMap<JsonSchema, { readonly root: JsonSchema; readonly value: T }>;

/**
 * What `make` computes for `schema` within `root`, made once: schemas never change, and a
 * repair pass or a union asks the same few nodes on every rejected call. One root per node
 * is kept (a node is asked within one root, or within a union branch standing alone).
 */
function memo<T, A>(
  cache: Memo<T | null>,
  schema: JsonSchema,
  root: JsonSchema,
  make: (schema: JsonSchema, root: JsonSchema, arg: A) => T | undefined,
  arg?: A,
): T | null {
  // `make` is a function of the module, not a closure: no allocation on the usual hit.
  const known = cache.get(schema);
  if (known !== undefined && known.root === root) return known.value;
  const value = make(schema, root, arg as A) ?? null;
  cache.set(schema, { root, value });
  return value;
}

const typesKnown: Memo<ReadonlySet<JsonType> | null> = new WeakMap();
const objectBranches: Memo<JsonSchema | null> = new WeakMap();
const arrayBranches: Memo<JsonSchema | null> = new WeakMap();

function typesOfNode(schema: JsonSchema, root: JsonSchema): ReadonlySet<JsonType> | undefined {
  const s = resolve(schema, root);
  if (typeof s.type === "string") return new Set([s.type as JsonType]);
  if (Array.isArray(s.type)) return new Set(s.type as JsonType[]);
  if (own(s, "const")) return new Set([typeOfValue(s.const)]);
  if (Array.isArray(s.enum)) return new Set(s.enum.map(typeOfValue));
  const parts = branches(s, root);
  if (parts.length === 0) return undefined;
  const all = new Set<JsonType>();
  for (const part of parts) {
    const types = typesOf(part, root);
    if (!types) return undefined;
    for (const t of types) all.add(t);
  }
  return all;
}

/** True when a value of JSON type `type` fits `types` (an integer is a number too). */
export function admits(types: ReadonlySet<JsonType>, type: JsonType): boolean {
  return types.has(type) || (type === "integer" && types.has("number"));
}

/**
 * The one branch of `schema` (itself, or a single `anyOf` branch) that describes values of
 * `type`; `undefined` when none or several do, so repair never guesses.
 */
export function branchFor(schema: JsonSchema, root: JsonSchema, type: "object" | "array"): JsonSchema | undefined {
  return memo(type === "object" ? objectBranches : arrayBranches, schema, root, branchOf, type) ?? undefined;
}

function branchOf(schema: JsonSchema, root: JsonSchema, type: "object" | "array"): JsonSchema | undefined {
  const s = resolve(schema, root);
  const parts = branches(s, root);
  if (parts.length === 0) return s;
  const matching = parts.filter((p) => typesOf(p, root)?.has(type));
  return matching.length === 1 ? matching[0] : undefined;
}

/** The schema of property `key` of an object schema, or `undefined` when it has none. */
export function propertySchema(schema: JsonSchema, key: string): JsonSchema | undefined {
  const props = asSchema(schema.properties);
  if (props && own(props, key)) return asSchema(props[key]);
  return asSchema(schema.additionalProperties);
}

/** The schema of item `index` of an array schema (`prefixItems` first, then `items`). */
export function itemSchema(schema: JsonSchema, index: number): JsonSchema | undefined {
  if (Array.isArray(schema.prefixItems) && index < schema.prefixItems.length)
    return asSchema(schema.prefixItems[index]);
  return asSchema(schema.items);
}

/** The `required` keys of an object schema. */
export function requiredKeys(schema: JsonSchema): readonly string[] {
  return Array.isArray(schema.required) ? (schema.required as string[]) : [];
}

const keysOf = new WeakMap<JsonSchema, readonly string[]>();

/** The declared keys of an object schema, in declaration order (one list per schema). */
export function declaredKeys(schema: JsonSchema): readonly string[] {
  let keys = keysOf.get(schema);
  if (!keys) {
    const props = asSchema(schema.properties);
    keys = props ? Object.keys(props) : [];
    keysOf.set(schema, keys);
  }
  return keys;
}

// Per root schema, the words of each node described so far: a rejected call describes the
// same few nodes (its expected types) again and again, and a node's words never change.
const described = new WeakMap<JsonSchema, WeakMap<JsonSchema, string>>();

/** Short words for what a schema accepts: `integer`, `one of "a", "b"`, `array of string`. */
export function describe(schema: JsonSchema, root: JsonSchema): string {
  let words = described.get(root);
  if (!words) {
    words = new WeakMap();
    described.set(root, words);
  }
  let text = words.get(schema);
  if (text === undefined) {
    text = describeNode(schema, root, 0);
    words.set(schema, text);
  }
  return text;
}

function describeNode(schema: JsonSchema, root: JsonSchema, depth: number): string {
  const s = resolve(schema, root);
  if (own(s, "const")) return `exactly ${JSON.stringify(s.const)}`;
  if (Array.isArray(s.enum)) return `one of ${s.enum.map((v) => JSON.stringify(v)).join(", ")}`;
  const parts = branches(s, root);
  if (parts.length > 0)
    // Said once: two object branches are "object", not "object or object".
    return depth > 2 ? "another shape" : [...new Set(parts.map((p) => describeNode(p, root, depth + 1)))].join(" or ");
  const types = Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === "string" ? [s.type] : [];
  if (types.length === 0) return "any value";
  return types
    .map((t) => {
      const items = asSchema(s.items);
      if (t === "array" && items && depth <= 2) return `array of ${describeNode(items, root, depth + 1)}`;
      if (t === "string" && typeof s.format === "string") return `${s.format} string`;
      return t;
    })
    .join(" or ");
}
