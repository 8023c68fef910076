import type { JsonSchema } from "toolwright";
import {
  type CheckContext,
  checksOf,
  isAnnotation,
  isPrimitive,
  member,
  patternTest,
  refTarget,
} from "./schema-checks.js";

type Subschema = JsonSchema | boolean;

/** Schemas nested deeper than this get no reader: the runtime's own walk refuses arguments past 64 levels. */
const MAX_READER_DEPTH = 32;

/**
 * A `$ref` reader refuses a value nested deeper than this, leaving it to the walk: with at
 * most {@link MAX_READER_DEPTH} levels written out below it, no value the reader accepts
 * is as deep as the 64 levels the walk refuses.
 */
const MAX_REF_LEVEL = 24;

const PRIMITIVE_TYPES = new Set(["string", "number", "integer", "boolean", "null"]);

/** True when every value `schema` accepts is a primitive, so the value is its own copy. */
function primitiveOnly(schema: Subschema): boolean {
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

/** Statements reading the value named `v` (returning false when it does not fit) and the name or expression of its frozen copy. */
interface Read {
  readonly code: string;
  readonly copy: string;
}

/** A `$ref` and nothing else that changes acceptance. */
function isRef(schema: JsonSchema): boolean {
  return typeof schema.$ref === "string" && only(schema, ["$ref"]);
}

/**
 * What a nullable object, array or `$ref` accepts besides null: the schema with its one
 * other type for `type: ["object", "null"]` (how the compiler writes `T | null` for an
 * object type), the other branch for `anyOf: [X, { type: "null" }]` (either order). Null
 * fits nothing else, so the reader needs no trial of branches (which would read a caller's
 * getters twice).
 */
function nonNullBranch(schema: JsonSchema): Subschema | undefined {
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
interface Tagged {
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
function tagged(schema: JsonSchema): Tagged | undefined {
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
function flatObjects(schema: JsonSchema): readonly JsonSchema[] | undefined {
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
function kindOf(schema: Subschema, context: CheckContext, following: Set<Subschema> = new Set()): Kind | undefined {
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
interface KindUnion {
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
function byKind(schema: JsonSchema, context: CheckContext): KindUnion | undefined {
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
function copyable(schema: Subschema, depth: number, context: CheckContext, visiting: Set<Subschema>): boolean {
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

/** The names of the factory's constants a reader uses. */
interface Names {
  readonly freeze: string;
  readonly protoOf: string;
  /** `Object.defineProperty`, made the first time a reader needs it. */
  define(): string;
  /** The function reading a `$ref`'s target, `(v, level) => copy | false`, written once per target. */
  refReader(target: Subschema): RefReader;
}

/**
 * A `$ref` target's reader function. Where the target accepts primitives (a union of
 * kinds), the value `false` is a copy the caller could not tell from a "no": the function
 * returns the token `falseCopy` for it instead.
 */
interface RefReader {
  readonly name: string;
  readonly falseCopy: string | undefined;
}

/**
 * How deep the value being read sits: `level` objects and arrays below the value the
 * function was called with, which sits at `d` in a `$ref` reader (`base` is `"d+"`) and
 * at 0 in `r0` (`base` is `""`).
 */
interface Level {
  readonly base: string;
  readonly level: number;
}

const below = ({ base, level }: Level): Level => ({ base, level: level + 1 });

function readerOf(schema: Subschema, v: string, context: CheckContext, names: Names, at: Level): Read {
  if (primitiveOnly(schema)) return { code: checksOf(schema, v, context), copy: v };
  const node = schema as JsonSchema;
  if (isRef(node)) {
    const copy = context.name("y");
    const reader = names.refReader(refTarget(node.$ref, context));
    const code = `const ${copy}=${reader.name}(${v},${at.base}${at.level});if(${copy}===false)return false;`;
    return { code, copy: reader.falseCopy ? `(${copy}===${reader.falseCopy}?false:${copy})` : copy };
  }
  const branch = nonNullBranch(node);
  if (branch !== undefined) {
    const copy = context.name("y");
    const read = readerOf(branch, v, context, names, at);
    return { code: `let ${copy}=null;if(${v}!==null){${read.code}${copy}=${read.copy};}`, copy };
  }
  const union = tagged(node);
  if (union !== undefined) return taggedReader(union, v, context, names, at);
  const flat = flatObjects(node);
  if (flat !== undefined) return flatReader(flat, v, context, names);
  const kinds = byKind(node, context);
  if (kinds !== undefined) return kindReader(kinds, v, context, names, at);
  return node.type === "object" ? objectReader(node, v, context, names, at) : arrayReader(node, v, context, names, at);
}

/** The test that `v` is an object with `Object.prototype` or no prototype, so `for...in` lists its own enumerable keys. */
function plainObject(v: string, names: Names): string {
  return `if(!(typeof ${v}==="object"&&${v}!==null&&!Array.isArray(${v})))return false;{const p=${names.protoOf}(${v});if(p!==Object.prototype&&p!==null)return false;}`;
}

/**
 * A tagged union's reader: the plain-object test and the key read once, then the reader of
 * the branch holding that constant, which takes the key's value as read.
 */
function taggedReader(union: Tagged, v: string, context: CheckContext, names: Names, at: Level): Read {
  const tag = context.name("t");
  const copy = context.name("y");
  let cases = "";
  for (const branch of union.branches) {
    const read = objectReader(branch.schema, v, context, names, at, { key: union.key, value: tag });
    cases += `case ${JSON.stringify(branch.tag)}:{${read.code}${copy}=${read.copy};break;}`;
  }
  const code = `${plainObject(v, names)}const ${tag}=${member(v, union.key)};let ${copy};switch(${tag}){${cases}default:return false;}`;
  return { code, copy };
}

/**
 * An untagged union of flat objects' reader: the plain-object test, every key any branch
 * declares read once, every own enumerable key one of them and read as present, then the
 * first branch whose keys and checks those values pass (the property checks are the
 * check's own functions). The copy holds the keys read as present.
 */
function flatReader(branches: readonly JsonSchema[], v: string, context: CheckContext, names: Names): Read {
  const keys = [...new Set(branches.flatMap((b) => Object.keys(b.properties ?? {})))];
  const locals = new Map(keys.map((key) => [key, context.name("x")]));
  const local = (key: string) => locals.get(key) as string;
  let code = plainObject(v, names);
  for (const key of keys) code += `const ${local(key)}=${member(v, key)};`;
  const seen = context.name("m");
  const k = context.name("k");
  const cases = keys.map((key) => `case ${JSON.stringify(key)}:`).join("");
  const count = cases ? `switch(${k}){${cases}${seen}++;break;default:return false;}` : "return false;";
  const present = keys.map((key) => `(${local(key)}!==undefined)`).join("+") || "0";
  code += `let ${seen}=0;for(const ${k} in ${v}){${count}}if(${seen}!==${present})return false;`;
  const fits = branches.map((branch) => {
    const properties = (branch.properties ?? {}) as Record<string, Subschema>;
    const required = new Set<unknown>(branch.required as readonly string[] | undefined);
    const terms = keys.map((key) => {
      const x = local(key);
      if (!Object.hasOwn(properties, key)) return `${x}===undefined`;
      const check = `${context.functionOf(properties[key] as Subschema)}(${x})`;
      return required.has(key) ? `${x}!==undefined&&${check}` : `(${x}===undefined||${check})`;
    });
    return `(${terms.join("&&") || "true"})`;
  });
  const result = context.name("o");
  code += `if(!(${fits.join("||")}))return false;const ${result}={};`;
  for (const key of keys) code += `if(${local(key)}!==undefined)${result}[${JSON.stringify(key)}]=${local(key)};`;
  code += `${names.freeze}(${result});`;
  return { code, copy: result };
}

/**
 * A union of different kinds' reader: the value's kind picks its group (an array, another
 * object, or a primitive, null included), whose reader or check runs; a kind no branch
 * accepts is rejected.
 */
function kindReader(kinds: KindUnion, v: string, context: CheckContext, names: Names, at: Level): Read {
  const copy = context.name("y");
  const read = (group: Subschema | undefined): string => {
    if (group === undefined) return "return false;";
    const r = readerOf(group, v, context, names, at);
    return `${r.code}${copy}=${r.copy};`;
  };
  const primitive =
    kinds.primitive === undefined ? "return false;" : `${checksOf(kinds.primitive, v, context)}${copy}=${v};`;
  const code =
    `let ${copy};if(Array.isArray(${v})){${read(kinds.array)}}` +
    `else if(typeof ${v}==="object"&&${v}!==null){${read(kinds.object)}}else{${primitive}}`;
  return { code, copy };
}

/** A key of the object already read (and its plain-object test made) by a tagged union's reader. */
interface ReadKey {
  readonly key: string;
  readonly value: string;
}

function objectReader(
  schema: JsonSchema,
  v: string,
  context: CheckContext,
  names: Names,
  at: Level,
  readKey?: ReadKey,
): Read {
  if (schema.additionalProperties !== false || schema.patternProperties !== undefined)
    return openObjectReader(schema, v, context, names, at);
  const properties = Object.entries((schema.properties ?? {}) as Record<string, Subschema>);
  const required = new Set<unknown>(schema.required as readonly string[] | undefined);
  const present = context.name("n");
  // A plain object, so every key read is an own or absent one.
  let code = `${readKey ? "" : plainObject(v, names)}let ${present}=${required.size};`;
  // The copy lists the keys in the schema's order: a literal up to the first optional key, then assignments.
  const literal: string[] = [];
  let assigned = "";
  const result = context.name("o");
  for (const [key, subschema] of properties) {
    const value = context.name("x");
    const read = readerOf(subschema, value, context, names, below(at));
    const target = `${result}[${JSON.stringify(key)}]`;
    code += `const ${value}=${key === readKey?.key ? readKey.value : member(v, key)};`;
    if (required.has(key)) {
      code += `if(${value}===undefined)return false;${read.code}`;
      if (assigned) assigned += `${target}=${read.copy};`;
      else literal.push(`${JSON.stringify(key)}:${read.copy}`);
    } else if (read.copy === value) {
      code += `if(${value}!==undefined){${read.code}${present}++;}`;
      assigned += `if(${value}!==undefined)${target}=${value};`;
    } else {
      const copy = context.name("y");
      code += `let ${copy};if(${value}!==undefined){${read.code}${copy}=${read.copy};${present}++;}`;
      assigned += `if(${copy}!==undefined)${target}=${copy};`;
    }
  }
  // Every own enumerable key is a declared one that was read as present: a key holding
  // undefined, or a declared key that is not enumerable, leaves the call to the full path.
  const key = context.name("k");
  const seen = context.name("m");
  const cases = properties.map(([name]) => `case ${JSON.stringify(name)}:`).join("");
  const count = cases ? `switch(${key}){${cases}${seen}++;break;default:return false;}` : "return false;";
  code += `let ${seen}=0;for(const ${key} in ${v}){${count}}if(${seen}!==${present})return false;`;
  code += `const ${result}={${literal.join(",")}};${assigned}${names.freeze}(${result});`;
  return { code, copy: result };
}

/**
 * An object open to more keys (a schema for its other keys, or `patternProperties`): one
 * pass over its keys (the copy keeps their order, as the runtime's walk does), each value
 * read once and checked by every schema that applies to its key: its declared property's
 * and the patterns it matches (primitive values only, their own copy), else the schema for
 * the other keys. A key holding `undefined` leaves the call to the full path.
 */
function openObjectReader(schema: JsonSchema, v: string, context: CheckContext, names: Names, at: Level): Read {
  const properties = Object.entries((schema.properties ?? {}) as Record<string, Subschema>);
  const required = new Set<unknown>(schema.required as readonly string[] | undefined);
  const result = context.name("o");
  const seen = context.name("n");
  const key = context.name("k");
  const value = context.name("x");
  const patterns = Object.entries((schema.patternProperties ?? {}) as Record<string, Subschema>).map(
    ([pattern, subschema]) => ({ pattern, test: patternTest(pattern, key, context), subschema }),
  );
  let cases = "";
  for (const [name, subschema] of properties) {
    const read = readerOf(subschema, value, context, names, below(at));
    // A pattern that matches a declared name applies to its value too (known at build time).
    const matching = patterns.filter(({ pattern }) => new RegExp(pattern, "u").test(name));
    const also = matching.map((p) => checksOf(p.subschema, value, context)).join("");
    const counted = required.has(name) ? `${seen}++;` : "";
    cases += `case ${JSON.stringify(name)}:{${also}${read.code}${result}[${key}]=${read.copy};${counted}break;}`;
  }
  // Any other key: the patterns it matches, or else the schema for the other keys.
  const copy = context.name("y");
  const matched = context.name("p");
  let other = patterns.length > 0 ? `let ${matched}=false,${copy}=${value};` : `let ${copy};`;
  for (const p of patterns) other += `if(${p.test}){${matched}=true;${checksOf(p.subschema, value, context)}}`;
  const rest = schema.additionalProperties as Subschema;
  let unmatched = "return false;";
  if (rest !== false) {
    const read = readerOf(rest, value, context, names, below(at));
    unmatched = `${read.code}${copy}=${read.copy};`;
  }
  other += patterns.length > 0 ? `if(!${matched}){${unmatched}}` : unmatched;
  // Assigned, `__proto__` would set the copy's prototype: it is defined as an own key, as the walk does.
  const own = `{value:${copy},enumerable:true,writable:true,configurable:true}`;
  other += `if(${key}==="__proto__")${names.define()}(${result},${key},${own});else ${result}[${key}]=${copy};`;
  const body = cases ? `switch(${key}){${cases}default:{${other}}}` : other;
  const code =
    `${plainObject(v, names)}const ${result}={};let ${seen}=0;` +
    `for(const ${key} in ${v}){const ${value}=${v}[${key}];if(${value}===undefined)return false;${body}}` +
    `if(${seen}!==${required.size})return false;${names.freeze}(${result});`;
  return { code, copy: result };
}

function arrayReader(schema: JsonSchema, v: string, context: CheckContext, names: Names, at: Level): Read {
  let code = `if(!Array.isArray(${v}))return false;`;
  if (schema.minItems !== undefined) code += `if(${v}.length<${schema.minItems})return false;`;
  if (schema.maxItems !== undefined) code += `if(${v}.length>${schema.maxItems})return false;`;
  const copy = context.name("c");
  const length = context.name("l");
  code += `const ${length}=${v}.length,${copy}=new Array(${length});`;
  const prefix = (schema.prefixItems ?? []) as Subschema[];
  prefix.forEach((s, index) => {
    const item = context.name("x");
    const read = readerOf(s, item, context, names, below(at));
    code += `if(${length}>${index}){const ${item}=${v}[${index}];${read.code}${copy}[${index}]=${read.copy};}`;
  });
  if (schema.items === false) code += `if(${length}>${prefix.length})return false;`;
  else {
    const i = context.name("i");
    const item = context.name("x");
    const read = readerOf(schema.items as Subschema, item, context, names, below(at));
    code += `for(let ${i}=${prefix.length};${i}<${length};${i}++){const ${item}=${v}[${i}];${read.code}${copy}[${i}]=${read.copy};}`;
  }
  if (schema.uniqueItems === true) code += `if(!h.unique(${copy}))return false;`;
  code += `${names.freeze}(${copy});`;
  return { code, copy };
}

/**
 * The source of `r0`, the reader of a tool's arguments (after the readers of the `$ref`
 * targets it uses), or `undefined` when the schema has a node it does not copy (a union
 * of objects with no tag to tell them apart and nested values, a node open to any value):
 * then the runtime copies the arguments with its own walk and checks them with `f0`, as before.
 *
 * The reader is the check and the copy in one pass over the arguments (a caller's object,
 * or what `JSON.parse` made): each value is read once (a getter runs once, as in the walk),
 * checked as the check of the schema would, and put in a
 * fresh object or array that is frozen as it is made. It returns that frozen copy, or false
 * when the value does not fit or is not plain data the walk would copy the same way.
 *
 * @example
 * ```ts
 * readerSource({ type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false }, context);
 * // 'function r0(v){if(!(typeof v==="object"&&...))return false;...const x1=v.city;...return o4}'
 * ```
 */
export function readerSource(schema: JsonSchema, context: CheckContext): string | undefined {
  if (schema.type !== "object" || !copyable(schema, 0, context, new Set())) return undefined;
  let define: string | undefined;
  let falseCopy: string | undefined;
  const falseToken = (): string => {
    falseCopy ??= context.constant("B", "{}");
    return falseCopy;
  };
  const refReaders = new Map<Subschema, RefReader>();
  const functions: string[] = [];
  const names: Names = {
    freeze: context.constant("F", "Object.freeze"),
    protoOf: context.constant("P", "Object.getPrototypeOf"),
    define: () => {
      define ??= context.constant("D", "Object.defineProperty");
      return define;
    },
    refReader(target) {
      const known = refReaders.get(target);
      if (known) return known;
      const kind = kindOf(target, context);
      const mayBePrimitive = kind !== "object" && kind !== "array";
      const reader: RefReader = { name: context.name("w"), falseCopy: mayBePrimitive ? falseToken() : undefined };
      // Known before its body is written, so a recursive type's reader calls itself.
      refReaders.set(target, reader);
      const read = readerOf(target, "v", context, names, { base: "d+", level: 0 });
      const copy = reader.falseCopy ? `${read.copy}===false?${reader.falseCopy}:${read.copy}` : read.copy;
      functions.push(`function ${reader.name}(v,d){if(d>${MAX_REF_LEVEL})return false;${read.code}return ${copy}}`);
      return reader;
    },
  };
  const read = readerOf(schema, "v", context, names, { base: "", level: 0 });
  return `${functions.join("")}function r0(v){${read.code}return ${read.copy}}`;
}
