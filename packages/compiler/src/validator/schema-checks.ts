import type { JsonSchema } from "toolwright";
import { CHECKED_STRING_FORMATS } from "./formats.js";

/** Thrown when a schema uses a keyword or value the generator does not cover. */
export class OutsideSubset extends Error {}

/** What the keyword writers need from the validator being generated. */
export interface CheckContext {
  readonly root: JsonSchema;
  readonly defs: Readonly<Record<string, Subschema>>;
  /** A fresh identifier starting with `prefix`. */
  name(prefix: string): string;
  /** A `var` made once in the factory (a RegExp, a Set, a format check); returns its name. */
  constant(prefix: string, code: string): string;
  /** The name of the function checking `schema`, written once per schema object. */
  functionOf(schema: Subschema): string;
  /**
   * What follows a parameter, a function's parameter list or a variable the code leaves
   * untyped: `:any` when the code is written as TypeScript (a `toolwright gen` module,
   * which strict TypeScript checks), nothing in JavaScript. It changes no behaviour.
   */
  readonly any: string;
}

type Subschema = JsonSchema | boolean;

/** Keywords that never change whether a value is accepted. */
const ANNOTATIONS = new Set([
  "$schema",
  "$comment",
  "title",
  "description",
  "default",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
]);

/** True for a keyword that never changes acceptance: an annotation, or a vendor keyword (`x-...`), which Ajv ignores too. */
export function isAnnotation(keyword: string): boolean {
  return ANNOTATIONS.has(keyword) || keyword.startsWith("x-");
}

/** Every keyword the generator checks, by the JSON type it applies to (`any` for all). */
const KEYWORDS: Readonly<Record<string, "any" | "number" | "string" | "array" | "object">> = {
  type: "any",
  enum: "any",
  const: "any",
  $ref: "any",
  anyOf: "any",
  oneOf: "any",
  allOf: "any",
  not: "any",
  minimum: "number",
  maximum: "number",
  exclusiveMinimum: "number",
  exclusiveMaximum: "number",
  multipleOf: "number",
  minLength: "string",
  maxLength: "string",
  pattern: "string",
  format: "string",
  items: "array",
  prefixItems: "array",
  minItems: "array",
  maxItems: "array",
  uniqueItems: "array",
  properties: "object",
  required: "object",
  additionalProperties: "object",
  patternProperties: "object",
  minProperties: "object",
  maxProperties: "object",
};

/** The test that `v` has JSON type `type`; numbers must be finite. */
export const TYPE_TESTS: Readonly<Record<string, (v: string) => string>> = {
  string: (v) => `typeof ${v}==="string"`,
  boolean: (v) => `typeof ${v}==="boolean"`,
  null: (v) => `${v}===null`,
  number: (v) => `(typeof ${v}==="number"&&isFinite(${v}))`,
  integer: (v) => `Number.isInteger(${v})`,
  array: (v) => `Array.isArray(${v})`,
  object: (v) => `(typeof ${v}==="object"&&${v}!==null&&!Array.isArray(${v}))`,
};

/** The guard that lets a keyword group run only on values of its type. */
export const GUARDS: Readonly<Record<string, (v: string) => string>> = {
  number: (v) => `typeof ${v}==="number"`,
  string: TYPE_TESTS.string as (v: string) => string,
  array: TYPE_TESTS.array as (v: string) => string,
  object: TYPE_TESTS.object as (v: string) => string,
};

function outside(why: string): never {
  throw new OutsideSubset(why);
}

function finite(value: unknown, keyword: string): number {
  return typeof value === "number" && Number.isFinite(value) ? value : outside(`${keyword} is not a finite number`);
}

function count(value: unknown, keyword: string): number {
  return Number.isInteger(value) && (value as number) >= 0 ? (value as number) : outside(`${keyword} is not a count`);
}

function schemaValue(value: unknown, keyword: string): Subschema {
  return typeof value === "boolean" || (typeof value === "object" && value !== null && !Array.isArray(value))
    ? (value as Subschema)
    : outside(`${keyword} is not a schema`);
}

function schemaList(value: unknown, keyword: string): Subschema[] {
  return Array.isArray(value) && value.length > 0
    ? value.map((s) => schemaValue(s, keyword))
    : outside(`${keyword} is not a list of schemas`);
}

function schemaMap(value: unknown, keyword: string): [string, Subschema][] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) outside(`${keyword} is not an object`);
  return Object.entries(value).map(([key, s]) => [key, schemaValue(s, keyword)]);
}

const fail = (condition: string): string => `if(${condition})return false;`;

/** True for the values JSON writes without nesting. */
export function isPrimitive(value: unknown): boolean {
  return value === null || typeof value === "string" || typeof value === "boolean" || typeof value === "number";
}

/** The test that `v` equals one of `values` (JSON equality, as `enum` and `const` compare). */
export function oneOfValues(values: readonly unknown[], v: string, context: CheckContext): string {
  const primitives = values.filter(isPrimitive);
  const others = values.filter((value) => !isPrimitive(value));
  const tests: string[] = [];
  if (primitives.length > 8) tests.push(`${context.constant("e", `new Set(${JSON.stringify(primitives)})`)}.has(${v})`);
  else for (const value of primitives) tests.push(`${v}===${JSON.stringify(value)}`);
  for (const value of others) tests.push(`h.equal(${v},${context.constant("c", JSON.stringify(value))})`);
  return tests.length > 0 ? tests.join("||") : "false";
}

/** Reading key `key` of object `v` as present-or-undefined, own keys only. */
export function member(v: string, key: string): string {
  // A key that Object.prototype also has (`constructor`, `__proto__`) must be an own one.
  if (key in Object.prototype)
    return `(Object.prototype.hasOwnProperty.call(${v},${JSON.stringify(key)})?${v}[${JSON.stringify(key)}]:undefined)`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${v}.${key}` : `${v}[${JSON.stringify(key)}]`;
}

export function refTarget(ref: unknown, context: CheckContext): Subschema {
  if (ref === "#") return context.root;
  if (typeof ref !== "string" || !ref.startsWith("#/$defs/")) return outside("a $ref outside #/$defs");
  const pointer = ref.slice("#/$defs/".length);
  if (pointer.includes("/") || pointer.includes("%")) outside("a $ref deeper than #/$defs/<name>");
  const name = pointer.replace(/~1/g, "/").replace(/~0/g, "~");
  return Object.hasOwn(context.defs, name) ? (context.defs[name] as Subschema) : outside(`no $defs entry ${name}`);
}

function anyChecks(schema: JsonSchema, v: string, context: CheckContext): string {
  let out = "";
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (types.length === 0) outside("an empty type list");
    const tests = types.map((t) => (typeof t === "string" && TYPE_TESTS[t] ? TYPE_TESTS[t](v) : outside("type")));
    out += fail(`!(${tests.join("||")})`);
  }
  if (schema.const !== undefined) out += fail(`!(${oneOfValues([schema.const], v, context)})`);
  if (schema.enum !== undefined) {
    if (!Array.isArray(schema.enum)) outside("enum is not a list");
    out += fail(`!(${oneOfValues(schema.enum, v, context)})`);
  }
  if (schema.$ref !== undefined) out += fail(`!${context.functionOf(refTarget(schema.$ref, context))}(${v})`);
  if (schema.allOf !== undefined) for (const s of schemaList(schema.allOf, "allOf")) out += checksOf(s, v, context);
  if (schema.anyOf !== undefined) {
    const calls = schemaList(schema.anyOf, "anyOf").map((s) => `${context.functionOf(s)}(${v})`);
    out += fail(`!(${calls.join("||")})`);
  }
  if (schema.oneOf !== undefined) {
    const calls = schemaList(schema.oneOf, "oneOf").map((s) => `(${context.functionOf(s)}(${v})?1:0)`);
    out += fail(`${calls.join("+")}!==1`);
  }
  if (schema.not !== undefined) out += fail(`${context.functionOf(schemaValue(schema.not, "not"))}(${v})`);
  return out;
}

function numberChecks(schema: JsonSchema, v: string): string {
  let out = "";
  // Written as "not ok" so that NaN fails every bound.
  if (schema.minimum !== undefined) out += fail(`!(${v}>=${finite(schema.minimum, "minimum")})`);
  if (schema.maximum !== undefined) out += fail(`!(${v}<=${finite(schema.maximum, "maximum")})`);
  if (schema.exclusiveMinimum !== undefined)
    out += fail(`!(${v}>${finite(schema.exclusiveMinimum, "exclusiveMinimum")})`);
  if (schema.exclusiveMaximum !== undefined)
    out += fail(`!(${v}<${finite(schema.exclusiveMaximum, "exclusiveMaximum")})`);
  if (schema.multipleOf !== undefined) {
    const step = finite(schema.multipleOf, "multipleOf");
    if (step <= 0) outside("multipleOf is not positive");
    out += fail(`!Number.isInteger(${v}/${step})`);
  }
  return out;
}

function stringChecks(schema: JsonSchema, v: string, context: CheckContext): string {
  let out = "";
  // JSON Schema counts code points; a string's length counts UTF-16 units, at most twice as
  // many, so the count (h.len) runs only when the length alone cannot decide.
  if (schema.minLength !== undefined) {
    const min = count(schema.minLength, "minLength");
    if (min > 0) out += fail(`${v}.length<${min}||(${v}.length<${2 * min}&&h.len(${v})<${min})`);
  }
  if (schema.maxLength !== undefined) {
    const max = count(schema.maxLength, "maxLength");
    out += fail(`${v}.length>${max}&&h.len(${v})>${max}`);
  }
  if (schema.pattern !== undefined) {
    if (typeof schema.pattern !== "string") outside("pattern is not a string");
    try {
      new RegExp(schema.pattern, "u");
    } catch {
      outside("pattern is not a valid Unicode regular expression");
    }
    out += fail(`!${context.constant("r", `new RegExp(${JSON.stringify(schema.pattern)},"u")`)}.test(${v})`);
  }
  if (schema.format !== undefined) {
    if (typeof schema.format !== "string" || !CHECKED_STRING_FORMATS.has(schema.format))
      outside(`format ${String(schema.format)}`);
    out += fail(`!${context.constant("m", `h.format(${JSON.stringify(schema.format)})`)}(${v})`);
  }
  return out;
}

function arrayChecks(schema: JsonSchema, v: string, context: CheckContext): string {
  let out = "";
  if (schema.minItems !== undefined) out += fail(`${v}.length<${count(schema.minItems, "minItems")}`);
  if (schema.maxItems !== undefined) out += fail(`${v}.length>${count(schema.maxItems, "maxItems")}`);
  const prefix = schema.prefixItems === undefined ? [] : schemaList(schema.prefixItems, "prefixItems");
  prefix.forEach((s, i) => {
    const item = context.name("x");
    const checks = checksOf(s, item, context);
    if (checks) out += `if(${v}.length>${i}){const ${item}=${v}[${i}];${checks}}`;
  });
  if (schema.items !== undefined) {
    const items = schemaValue(schema.items, "items");
    if (items === false) out += fail(`${v}.length>${prefix.length}`);
    else {
      const i = context.name("i");
      const item = context.name("x");
      const checks = checksOf(items, item, context);
      if (checks) out += `for(let ${i}=${prefix.length};${i}<${v}.length;${i}++){const ${item}=${v}[${i}];${checks}}`;
    }
  }
  if (schema.uniqueItems === true) out += fail(`!h.unique(${v})`);
  else if (schema.uniqueItems !== undefined && schema.uniqueItems !== false) outside("uniqueItems is not a boolean");
  return out;
}

function objectChecks(schema: JsonSchema, v: string, context: CheckContext): string {
  let out = "";
  const properties = schema.properties === undefined ? [] : schemaMap(schema.properties, "properties");
  const required = schema.required ?? [];
  if (!Array.isArray(required) || !required.every((k) => typeof k === "string")) outside("required");
  const mustHave = new Set<string>(required);
  for (const [key, s] of properties) {
    const value = context.name("x");
    const checks = checksOf(s, value, context);
    if (mustHave.delete(key)) out += `const ${value}=${member(v, key)};${fail(`${value}===undefined`)}${checks}`;
    else if (checks) out += `const ${value}=${member(v, key)};if(${value}!==undefined){${checks}}`;
  }
  for (const key of mustHave) out += fail(`${member(v, key)}===undefined`);
  if (schema.minProperties !== undefined || schema.maxProperties !== undefined) {
    const size = context.name("n");
    out += `const ${size}=Object.keys(${v}).length;`;
    if (schema.minProperties !== undefined) out += fail(`${size}<${count(schema.minProperties, "minProperties")}`);
    if (schema.maxProperties !== undefined) out += fail(`${size}>${count(schema.maxProperties, "maxProperties")}`);
  }
  return out + keyLoop(schema, v, properties, context);
}

/** The test that the key named `key` matches `pattern`, a Unicode regular expression made once in the factory. */
export function patternTest(pattern: string, key: string, context: CheckContext): string {
  try {
    new RegExp(pattern, "u");
  } catch {
    outside("patternProperties has an invalid regular expression");
  }
  return `${context.constant("r", `new RegExp(${JSON.stringify(pattern)},"u")`)}.test(${key})`;
}

/**
 * The loop that fails on the first key of `v`, whose name nothing reads: it starts with `_`,
 * which strict TypeScript's noUnusedLocals takes as unused on purpose (a `toolwright gen` module).
 */
export function noKeyLoop(v: string, context: CheckContext): string {
  return `for(const _${context.name("k")} in ${v})return false;`;
}

/** The loop over an object's keys for `patternProperties` and `additionalProperties`. */
function keyLoop(schema: JsonSchema, v: string, properties: [string, Subschema][], context: CheckContext): string {
  const patterns =
    schema.patternProperties === undefined ? [] : schemaMap(schema.patternProperties, "patternProperties");
  const extra =
    schema.additionalProperties === undefined ? true : schemaValue(schema.additionalProperties, "additionalProperties");
  if (patterns.length === 0 && extra === true) return "";
  if (patterns.length === 0 && extra === false && properties.length === 0) return noKeyLoop(v, context);
  const key = context.name("k");
  const value = context.name("x");
  let body = "";
  const tests: string[] = [];
  for (const [pattern, s] of patterns) {
    const test = patternTest(pattern, key, context);
    tests.push(test);
    const checks = checksOf(s, value, context);
    if (checks) body += `if(${test}){const ${value}=${v}[${key}];${checks}}`;
  }
  if (extra !== true) {
    const declared = properties.map(([name]) => `case ${JSON.stringify(name)}:`).join("");
    const checks =
      extra === false ? "return false;" : `{const ${value}=${v}[${key}];${checksOf(extra, value, context)}}`;
    const unmatched = tests.length > 0 ? `if(!(${tests.join("||")}))${checks}` : checks;
    body += declared ? `switch(${key}){${declared}break;default:${unmatched}}` : unmatched;
  }
  return body ? `for(const ${key} in ${v}){${body}}` : "";
}

const GROUPS = [
  ["number", numberChecks],
  ["string", stringChecks],
  ["array", arrayChecks],
  ["object", objectChecks],
] as const;

/**
 * Statements that `return false` when the value named `v` does not fit `schema`, and
 * fall through when it does. Throws {@link OutsideSubset} on anything not covered.
 */
export function checksOf(schema: Subschema, v: string, context: CheckContext): string {
  if (schema === true) return "";
  if (schema === false) return "return false;";
  for (const keyword of Object.keys(schema)) {
    if (keyword === "$defs" ? schema !== context.root : !(keyword in KEYWORDS) && !isAnnotation(keyword))
      outside(`keyword ${keyword}`);
  }
  const known = typeof schema.type === "string" ? schema.type : undefined;
  let out = anyChecks(schema, v, context);
  for (const [group, write] of GROUPS) {
    if (!Object.keys(schema).some((keyword) => KEYWORDS[keyword] === group)) continue;
    const checks = write(schema, v, context);
    if (!checks) continue;
    const typed = known === group || (group === "number" && known === "integer");
    out += typed ? checks : `if(${(GUARDS[group] as (v: string) => string)(v)}){${checks}}`;
  }
  return out;
}
