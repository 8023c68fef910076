import { ToolwrightError } from "../errors.js";
import { definitionName, isSchemaObject, mapSubschemas, type SchemaObject } from "./subschemas.js";

/** Keywords an OpenAPI 3.0 Schema Object has, besides `x-` extensions; `nullable` is made here. */
const SCHEMA_OBJECT = new Set([
  "title",
  "multipleOf",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "maxLength",
  "minLength",
  "pattern",
  "maxItems",
  "minItems",
  "uniqueItems",
  "maxProperties",
  "minProperties",
  "required",
  "enum",
  "type",
  "allOf",
  "oneOf",
  "anyOf",
  "not",
  "items",
  "properties",
  "additionalProperties",
  "description",
  "format",
  "default",
  "nullable",
  "readOnly",
  "writeOnly",
  "example",
  "deprecated",
]);

/** OpenAPI 3.0 has no `null` type: a value that may only be null, as 3.0.3 spells it. */
const NULL_ONLY: SchemaObject = { type: "string", nullable: true, enum: [null] };

interface Context {
  readonly owner: string;
  readonly defs: SchemaObject;
  /** The definitions being inlined around this node: meeting one again is recursion. */
  readonly inlining: readonly string[];
}

function refuse(ctx: Context, what: string, path: string): never {
  throw new ToolwrightError(
    `"${ctx.owner}": an OpenAPI 3.0 Schema Object cannot express ${what} (at ${path || "the root"}); ` +
      `ask for target "draft-2020-12" or "draft-07".`,
  );
}

/** A branch that admits only null: `{ type: "null" }`, as it reads once converted (branches are converted first). */
function isNullBranch(node: unknown): boolean {
  return (
    isSchemaObject(node) &&
    node.type === "string" &&
    node.nullable === true &&
    Array.isArray(node.enum) &&
    node.enum.length === 1 &&
    node.enum[0] === null &&
    Object.keys(node).length === 3
  );
}

/**
 * A definition in place of its `$ref` (siblings win), with the context of what is inside it;
 * a recursive one has no form without a components section.
 */
function inlined(node: SchemaObject, path: string, ctx: Context): [SchemaObject, Context] {
  if (typeof node.$ref !== "string") return [node, ctx];
  const name = definitionName(node.$ref);
  const target = name === undefined ? undefined : ctx.defs[name];
  if (name === undefined || ctx.inlining.includes(name) || !isSchemaObject(target)) {
    refuse(ctx, `the recursive or external reference "${node.$ref}" without a components section`, path);
  }
  const { $ref: _ref, ...siblings } = node;
  return inlined({ ...target, ...siblings }, path, { ...ctx, inlining: [...ctx.inlining, name] });
}

/** The node's `type` as a list (`[]` when absent). */
function typesOf(node: SchemaObject): string[] {
  const t = node.type;
  return typeof t === "string" ? [t] : Array.isArray(t) ? t.filter((x): x is string => typeof x === "string") : [];
}

/** 2020-12's numeric `exclusiveMinimum: n` as 3.0's `minimum: n, exclusiveMinimum: true` (and the maximum). */
function exclusiveBounds(out: SchemaObject): void {
  for (const [exclusive, bound, stricter] of [
    ["exclusiveMinimum", "minimum", (a: number, b: number) => a >= b],
    ["exclusiveMaximum", "maximum", (a: number, b: number) => a <= b],
  ] as const) {
    const limit = out[exclusive];
    if (typeof limit !== "number") continue;
    const other = out[bound];
    if (typeof other === "number" && other !== limit && stricter(other, limit)) delete out[exclusive];
    else {
      out[bound] = limit;
      out[exclusive] = true;
    }
  }
}

/** `type` arrays and `null` branches as `nullable`, which 3.0.3 reads only beside a `type`. */
function nullables(out: SchemaObject): SchemaObject {
  const types = typesOf(out);
  if (Array.isArray(out.type)) {
    const present = types.filter((t) => t !== "null");
    const nullable = present.length < types.length;
    delete out.type;
    if (present.length === 0) return { ...out, ...NULL_ONLY };
    if (present.length === 1) {
      out.type = present[0];
      if (nullable) out.nullable = true;
    } else if (!Array.isArray(out.enum)) {
      // An enum lists its values (null among them) and needs no type; other unions become branches.
      out.anyOf = [...present.map((type) => ({ type })), ...(nullable ? [NULL_ONLY] : [])];
    }
  } else if (out.type === "null") {
    return { ...out, ...NULL_ONLY };
  }
  if (Array.isArray(out.anyOf) && out.anyOf.some(isNullBranch)) {
    const rest = out.anyOf.filter((b) => !isNullBranch(b));
    const only = rest.length === 1 && isSchemaObject(rest[0]) && typeof rest[0].type === "string" ? rest[0] : undefined;
    delete out.anyOf;
    if (only) return { ...only, ...out, nullable: true };
    out.anyOf = [...rest, NULL_ONLY];
  }
  return out;
}

/** A boolean subschema as a Schema Object: `true` is `{}` and `false`, which no value fits, `{ not: {} }`. */
function asSchemaObject(schema: unknown): unknown {
  return schema === true ? {} : schema === false ? { not: {} } : schema;
}

/** 3.0 takes a boolean schema only as `additionalProperties`: every other subschema is an object. */
function booleanSubschemas(out: SchemaObject): void {
  for (const key of ["items", "not"]) if (key in out) out[key] = asSchemaObject(out[key]);
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    const list = out[key];
    if (Array.isArray(list)) out[key] = list.map(asSchemaObject);
  }
  if (isSchemaObject(out.properties)) {
    out.properties = Object.fromEntries(Object.entries(out.properties).map(([name, s]) => [name, asSchemaObject(s)]));
  }
}

function convert(input: SchemaObject, path: string, outer: Context): SchemaObject {
  const [node, ctx] = inlined(input, path, outer);
  for (const key of ["prefixItems", "patternProperties", "propertyNames", "if", "contains", "dependentRequired"]) {
    if (key in node) refuse(ctx, `"${key}"`, path);
  }
  let out = mapSubschemas(node, path, (child, at) => convert(child, at, ctx));
  delete out.$defs;
  delete out.definitions;
  if ("const" in out) {
    out.enum = [out.const];
    delete out.const;
  }
  if (Array.isArray(out.examples)) {
    if (out.examples.length > 0) out.example = out.examples[0];
    delete out.examples;
  }
  exclusiveBounds(out);
  if (out.items === false) {
    out.items = {};
    out.maxItems = 0;
  }
  booleanSubschemas(out);
  out = nullables(out);
  if (Array.isArray(out.enum) && out.enum.includes(null) && typeof out.type === "string") out.nullable = true;
  // 3.0 requires `items` on every array schema.
  if (out.type === "array" && !("items" in out)) out.items = {};
  for (const key of Object.keys(out)) {
    if (!SCHEMA_OBJECT.has(key) && !key.startsWith("x-")) refuse(ctx, `"${key}"`, path);
  }
  return out;
}

/**
 * A canonical (2020-12) schema as an OpenAPI 3.0 Schema Object: no `$schema`, `nullable` for
 * `null` (type arrays, `null` branches and enums), `const` as a one-value `enum`,
 * boolean exclusive bounds, `examples` as `example`, and non-recursive definitions inlined.
 * What 3.0 cannot say (a recursive type, a tuple, pattern keys) throws, naming it, rather
 * than giving a schema that accepts something else.
 */
export function toOpenApi30(schema: SchemaObject, owner: string): SchemaObject {
  const defs = isSchemaObject(schema.$defs)
    ? schema.$defs
    : isSchemaObject(schema.definitions)
      ? schema.definitions
      : {};
  return convert(schema, "", { owner, defs, inlining: [] });
}
