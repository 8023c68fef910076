import type { JsonSchema } from "toolwright";
import {
  byKind,
  copyable,
  flatObjects,
  isRef,
  type KindUnion,
  kindOf,
  MAX_REF_LEVEL,
  nonNullBranch,
  primitiveOnly,
  type Subschema,
  type Tagged,
  tagged,
} from "./reader-shapes.js";
import { type CheckContext, checksOf, member, noKeyLoop, patternTest, refTarget } from "./schema-checks.js";

/** Statements reading the value named `v` (returning false when it does not fit) and the name or expression of its frozen copy. */
interface Read {
  readonly code: string;
  readonly copy: string;
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
    return { code: `let ${copy}${context.any}=null;if(${v}!==null){${read.code}${copy}=${read.copy};}`, copy };
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
  const code = `${plainObject(v, names)}const ${tag}=${member(v, union.key)};let ${copy}${context.any};switch(${tag}){${cases}default:return false;}`;
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
  const present = keys.map((key) => `(${local(key)}!==undefined)`).join("+") || "0";
  code += keysAllRead(v, keys, present, context);
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
  code += `if(!(${fits.join("||")}))return false;const ${result}${context.any}={};`;
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
    `let ${copy}${context.any};if(Array.isArray(${v})){${read(kinds.array)}}` +
    `else if(typeof ${v}==="object"&&${v}!==null){${read(kinds.object)}}else{${primitive}}`;
  return { code, copy };
}

/**
 * The test that every own enumerable key of `v` is one of `keys` and was read as present
 * (`present` counts those): a key holding undefined, or a declared key that is not
 * enumerable, leaves the call to the full path.
 */
function keysAllRead(v: string, keys: readonly string[], present: string, context: CheckContext): string {
  if (keys.length === 0) return `${noKeyLoop(v, context)}if(${present}!==0)return false;`;
  const key = context.name("k");
  const seen = context.name("m");
  const cases = keys.map((name) => `case ${JSON.stringify(name)}:`).join("");
  return `let ${seen}=0;for(const ${key} in ${v}){switch(${key}){${cases}${seen}++;break;default:return false;}}if(${seen}!==${present})return false;`;
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
      code += `let ${copy}${context.any};if(${value}!==undefined){${read.code}${copy}=${read.copy};${present}++;}`;
      assigned += `if(${copy}!==undefined)${target}=${copy};`;
    }
  }
  code += keysAllRead(
    v,
    properties.map(([name]) => name),
    present,
    context,
  );
  code += `const ${result}${context.any}={${literal.join(",")}};${assigned}${names.freeze}(${result});`;
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
  let other =
    patterns.length > 0 ? `let ${matched}=false,${copy}${context.any}=${value};` : `let ${copy}${context.any};`;
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
    `${plainObject(v, names)}const ${result}${context.any}={};let ${seen}=0;` +
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
      const any = context.any;
      functions.push(
        `function ${reader.name}(v${any},d${any})${any}{if(d>${MAX_REF_LEVEL})return false;${read.code}return ${copy}}`,
      );
      return reader;
    },
  };
  const read = readerOf(schema, "v", context, names, { base: "", level: 0 });
  return `${functions.join("")}function r0(v${context.any})${context.any}{${read.code}return ${read.copy}}`;
}
