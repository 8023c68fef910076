import type { JsonSchema } from "toolwright";
import { type CheckContext, isAnnotation, isPrimitive, refTarget } from "./schema-checks.js";

// What the reader (reader-source.ts) can read: the shapes of schema it writes code for,
// each recognised once here, and whether a whole schema is made of them.

export type Subschema = JsonSchema | boolean;

/** Schemas nested deeper than this get no reader: the runtime's own walk refuses arguments past 64 levels. */
const MAX_READER_DEPTH = 32;

/**
 * A `$ref` reader refuses a value nested deeper than this, leaving it to the walk: with at
 * most {@link MAX_READER_DEPTH} levels written out below it, no value the reader accepts
 * is as deep as the 64 levels the walk refuses.
 */
export const MAX_REF_LEVEL = 24;

const PRIMITIVE_TYPES = new Set(["string", "number", "integer", "boolean", "null"]);

/** True when every value `schema` accepts is a primitive, so the value is its own copy. */
export function primitiveOnly(schema: Subschema): boolean {
  if (typeof schema !== "object") return false;
  if (schema.type !== undefined) {
    const types: unknown[] = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (types.length > 0 && types.every((t) => typeof t === "string" && PRIMITIVE_TYPES.has(t))) return true;
  }
  if (Array.isArray(schema.enum) && schema.enum.every(isPrimitive)) return true;
  if (schema.const !== undefined && isPrimitive(schema.const)) return true;
  const branches = schema.anyOf ?? schema.oneOf;
  return Array.isArray(branches) && branches.length > 0 && branches.every(primitiveOnly);
}

/** True when `schema` has only the keywords in `allowed` (and annotations). */
function only(schema: JsonSchema, allowed: readonly string[]): boolean {
  return Object.keys(schema).every((keyword) => allowed.includes(keyword) || isAnnotation(keyword));
}

/** A `$ref` and nothing else that changes acceptance. */
export function isRef(schema: JsonSchema): boolean {
  return typeof schema.$ref === "string" && only(schema, ["$ref"]);
}

/**
 * What a nullable object, array or `$ref` accepts besides null: the schema with its one
 * other type for `type: ["object", "null"]` (how the compiler writes `T | null` for an
 * object type), the other branch for `anyOf: [X, { type: "null" }]` (either order). Null
 * fits nothing else, so the reader needs no trial of branches (which would read a caller's
 * getters twice).
 */
export function nonNullBranch(schema: JsonSchema): Subschema | undefined {
  const { type } = schema;
  if (Array.isArray(type) && type.length === 2 && type.includes("null")) {
    const other = type[0] === "null" ? type[1] : type[0];
    return other === "object" || other === "array" ? { ...schema, type: other } : undefined;
  }
  const branches = schema.anyOf;
  if (!Array.isArray(branches) || branches.length !== 2 || !only(schema, ["anyOf"])) return undefined;
  const isNull = (s: unknown) =>
    typeof s === "object" && s !== null && (s as JsonSchema).type === "null" && only(s as JsonSchema, ["type"]);
  return isNull(branches[0]) ? branches[1] : isNull(branches[1]) ? branches[0] : undefined;
}

/** A tagged union: closed objects that each require `key`, with a different constant there. */
export interface Tagged {
  readonly key: string;
  readonly branches: readonly { readonly tag: string | number | boolean; readonly schema: JsonSchema }[];
}

/** The constant a branch requires at `key` (`{ const }`, with its `type` or not), if any. */
function tagOf(branch: JsonSchema, key: string): string | number | boolean | undefined {
  const property = (branch.properties as Record<string, Subschema> | undefined)?.[key];
  if (typeof property !== "object" || property === null || !only(property, ["type", "const"])) return undefined;
  const tag = property.const;
  const required = branch.required as unknown[] | undefined;
  if (!required?.includes(key)) return undefined;
  return typeof tag === "string" || typeof tag === "number" || typeof tag === "boolean" ? tag : undefined;
}

/**
 * The tagged union an `anyOf` of closed objects is (`{ kind: "email", ... } | { kind:
 * "phone", ... }`), or undefined. A value fits at most the one branch whose constant it
 * holds at the key, so the reader reads the key once and reads that branch only: no trial
 * of branches.
 */
export function tagged(schema: JsonSchema): Tagged | undefined {
  const branches = schema.anyOf;
  if (!Array.isArray(branches) || branches.length < 2 || !only(schema, ["anyOf"])) return undefined;
  const objects = branches.filter(
    (b): b is JsonSchema =>
      typeof b === "object" && b !== null && b.type === "object" && b.additionalProperties === false,
  );
  if (objects.length !== branches.length) return undefined;
  const first = objects[0] as JsonSchema;
  for (const key of Object.keys((first.properties ?? {}) as object)) {
    const tags = objects.map((b) => tagOf(b, key));
    if (tags.some((t) => t === undefined) || new Set(tags).size !== tags.length) continue;
    return { key, branches: objects.map((b, i) => ({ tag: tags[i] as string | number | boolean, schema: b })) };
  }
  return undefined;
}

/**
 * The branches of an untagged union of closed objects whose properties all take primitives
 * (`{ lat: number; lon: number } | { city: string }`), or undefined. Their keys are read
 * once, and each branch's test is a pure function of those reads, so trying the branches
 * in turn reads nothing twice.
 */
export function flatObjects(schema: JsonSchema): readonly JsonSchema[] | undefined {
  const branches = schema.anyOf;
  if (!Array.isArray(branches) || branches.length < 2 || !only(schema, ["anyOf"])) return undefined;
  const flat = (b: unknown): b is JsonSchema => {
    if (typeof b !== "object" || b === null) return false;
    const branch = b as JsonSchema;
    if (branch.type !== "object" || branch.additionalProperties !== false) return false;
    if (!only(branch, ["type", "properties", "required", "additionalProperties"])) return false;
    const properties = (branch.properties ?? {}) as Record<string, Subschema>;
    const required: unknown = branch.required ?? [];
    return (
      Array.isArray(required) &&
      required.every((key) => typeof key === "string" && Object.hasOwn(properties, key)) &&
      !Object.hasOwn(properties, "__proto__") &&
      Object.values(properties).every(primitiveOnly)
    );
  };
  return branches.every(flat) ? branches : undefined;
}

/** The one kind of JavaScript value every value a schema accepts is. */
type Kind = "primitive" | "object" | "array";

/** The kind of every value `schema` accepts, when they are all of one kind (a `$ref` by its target's). */
export function kindOf(
  schema: Subschema,
  context: CheckContext,
  following: Set<Subschema> = new Set(),
): Kind | undefined {
  if (primitiveOnly(schema)) return "primitive";
  if (typeof schema !== "object") return undefined;
  if (isRef(schema)) {
    const target = refTarget(schema.$ref, context);
    if (following.has(target)) return undefined;
    following.add(target);
    return kindOf(target, context, following);
  }
  if (schema.type === "object" || tagged(schema) !== undefined || flatObjects(schema) !== undefined) return "object";
  return schema.type === "array" ? "array" : undefined;
}

/** A union's branches grouped by the kind of value they accept (one schema per kind). */
export interface KindUnion {
  readonly primitive?: Subschema;
  readonly object?: Subschema;
  readonly array?: Subschema;
}

/**
 * A union whose branches accept different kinds of value (`string | string[]`, `number |
 * Item | null`), grouped by kind: at most one array branch, and the object branches one
 * branch, a tagged union or flat objects. A value's kind picks the only group that can accept it, so the
 * reader reads it once, with no trial of branches. Undefined for anything else, and for a
 * union of one kind (`primitiveOnly` and `tagged` cover those that the reader reads).
 */
export function byKind(schema: JsonSchema, context: CheckContext): KindUnion | undefined {
  const branches = schema.anyOf;
  if (!Array.isArray(branches) || branches.length < 2 || !only(schema, ["anyOf"])) return undefined;
  const groups: Record<Kind, Subschema[]> = { primitive: [], object: [], array: [] };
  for (const branch of branches as Subschema[]) {
    const kind = kindOf(branch, context);
    if (kind === undefined) return undefined;
    groups[kind].push(branch);
  }
  if (groups.array.length > 1 || Object.values(groups).filter((g) => g.length > 0).length < 2) return undefined;
  const one = (group: Subschema[]): Subschema | undefined => (group.length > 1 ? { anyOf: group } : group[0]);
  const object = one(groups.object);
  const objects = object as JsonSchema;
  if (groups.object.length > 1 && tagged(objects) === undefined && flatObjects(objects) === undefined) return undefined;
  return { primitive: one(groups.primitive), object, array: groups.array[0] };
}

/**
 * True when the reader copies what `schema` accepts: primitives, objects, arrays and
 * tuples of such, a nullable one of them, a tagged union of such objects, an untagged one of
 * flat objects, a union of such values of different kinds, and `$ref`s to such. `visiting` holds the `$ref` targets being checked:
 * a recursive type is copyable when everything else in it is.
 */
export function copyable(schema: Subschema, depth: number, context: CheckContext, visiting: Set<Subschema>): boolean {
  if (depth > MAX_READER_DEPTH) return false;
  if (primitiveOnly(schema)) return true;
  if (typeof schema !== "object") return false;
  if (isRef(schema)) {
    const target = refTarget(schema.$ref, context);
    if (visiting.has(target)) return true;
    visiting.add(target);
    const result = copyable(target, depth, context, visiting);
    visiting.delete(target);
    return result;
  }
  const branch = nonNullBranch(schema);
  if (branch !== undefined) return copyable(branch, depth, context, visiting);
  const union = tagged(schema);
  if (union !== undefined) return union.branches.every((b) => copyable(b.schema, depth, context, visiting));
  if (flatObjects(schema) !== undefined) return true;
  const kinds = byKind(schema, context);
  // A primitive is its own copy: that group needs its check only.
  if (kinds !== undefined)
    return [kinds.object, kinds.array].every((b) => b === undefined || copyable(b, depth, context, visiting));
  const rest = schema.additionalProperties;
  // Closed, or open with a schema for the other keys (a `Record`, an index signature).
  const open = typeof rest === "object" && rest !== null && !Array.isArray(rest);
  if (schema.type === "object" && (rest === false || open)) {
    if (!only(schema, ["type", "properties", "required", "additionalProperties", "patternProperties", "$defs"]))
      return false;
    const properties = (schema.properties ?? {}) as Record<string, Subschema>;
    const required: unknown = schema.required ?? [];
    const patterns: unknown = schema.patternProperties ?? {};
    return (
      // Patterns for primitive values only: a value a pattern and its declared property
      // both apply to is checked by both, and is its own copy.
      typeof patterns === "object" &&
      patterns !== null &&
      Object.values(patterns).every(primitiveOnly) &&
      Array.isArray(required) &&
      required.every((key) => typeof key === "string" && Object.hasOwn(properties, key)) &&
      // Written into the copy, `__proto__` would set its prototype: such objects take the full path.
      !Object.hasOwn(properties, "__proto__") &&
      Object.values(properties).every((s) => copyable(s, depth + 1, context, visiting)) &&
      (!open || copyable(rest as Subschema, depth + 1, context, visiting))
    );
  }
  if (schema.type === "array" && schema.items !== undefined) {
    // A tuple: `prefixItems` for the first items, `items` for the rest (`false`: no more).
    const prefix: unknown = schema.prefixItems ?? [];
    return (
      only(schema, ["type", "prefixItems", "items", "minItems", "maxItems", "uniqueItems"]) &&
      (schema.minItems === undefined || Number.isInteger(schema.minItems)) &&
      (schema.maxItems === undefined || Number.isInteger(schema.maxItems)) &&
      (schema.uniqueItems === undefined || typeof schema.uniqueItems === "boolean") &&
      Array.isArray(prefix) &&
      prefix.every((s) => copyable(s, depth + 1, context, visiting)) &&
      (schema.items === false || copyable(schema.items as Subschema, depth + 1, context, visiting))
    );
  }
  return false;
}
