import type { ISSUE_KEYWORDS, JsonSchema } from "toolwright";
import {
  type CheckContext,
  GUARDS,
  member,
  OutsideSubset,
  oneOfValues,
  refTarget,
  TYPE_TESTS,
} from "./schema-checks.js";

type Subschema = JsonSchema | boolean;

/**
 * The runtime's keyword codes (its type makes this list the runtime's, entry for entry). A
 * copy, not an import: `ISSUE_KEYWORDS` is on the runtime's root entry, whose loading would
 * add about 14 ms to every build.
 */
const CODES: typeof ISSUE_KEYWORDS = [
  "type",
  "required",
  "additionalProperties",
  "enum",
  "const",
  "anyOf",
  "maximum",
  "minimum",
  "exclusiveMaximum",
  "exclusiveMinimum",
  "multipleOf",
  "maxLength",
  "minLength",
  "pattern",
  "format",
  "maxItems",
  "minItems",
  "items",
  "maxProperties",
  "minProperties",
];

type Keyword = (typeof ISSUE_KEYWORDS)[number];

/** What the issue writers need: the check being generated (its names, constants, functions) and the collectors. */
interface IssuesContext {
  readonly check: CheckContext;
  /** The name of the collector of `schema`, written once per schema object. */
  collectorOf(schema: Subschema): string;
}

/**
 * Where the value being collected sits: the collector's own value (`p`, `s`), or the
 * property `key` of it, whose errors the runtime places (`h.child`) so that the code
 * carries neither its path nor its schema.
 */
type Place = { readonly key?: string };

/**
 * Ajv's keyword groups in the order it runs them (`ajv.RULES`), limited to the keywords the
 * generated check covers: the feedback lists problems in the order Ajv finds them, so the
 * collector must find them in that order too.
 */
const GROUPS: readonly (readonly [string, readonly string[]])[] = [
  ["number", ["maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum", "multipleOf", "format"]],
  ["string", ["maxLength", "minLength", "pattern", "format"]],
  ["array", ["maxItems", "minItems", "prefixItems", "items", "uniqueItems"]],
  ["object", ["maxProperties", "minProperties", "required", "additionalProperties", "properties", "patternProperties"]],
];

/** The keywords of the array group: a property using one is collected by its own collector. */
const ARRAY_KEYWORDS = (GROUPS.find(([group]) => group === "array") as (typeof GROUPS)[number])[1];

/** Keywords that change acceptance; beside a `$ref`, Ajv would run them in another order. */
const VALIDATING = new Set([
  "type",
  "enum",
  "const",
  "anyOf",
  "oneOf",
  "allOf",
  "not",
  ...GROUPS.flatMap(([, keywords]) => keywords),
]);

/** Keywords a property's value can be collected with inline, in its parent's collector. */
const INLINE = new Set([...VALIDATING].filter((k) => !["anyOf", "oneOf", "allOf", "not"].includes(k)));

function outside(why: string): never {
  throw new OutsideSubset(why);
}

/** `s.properties.city`, or `s.properties["a-b"]` for a key that is no identifier. */
function at(expression: string, key: string | number): string {
  return typeof key === "string" && /^[A-Za-z_$][\w$]*$/.test(key)
    ? `${expression}.${key}`
    : `${expression}[${JSON.stringify(key)}]`;
}

/** A JSON Pointer expression one static segment further: `p` → `p+"/to"`. */
function child(path: string, key: string): string {
  return `${path}+${JSON.stringify(`/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`)}`;
}

/** An error of `keyword` for the value `v` at `place` (see the runtime's `issue` and `child` helpers). */
function report(keyword: Keyword, place: Place, v: string, extra?: string): string {
  const code = CODES.indexOf(keyword);
  if (place.key !== undefined) return `C(${code},p,s,${JSON.stringify(place.key)},${v});`;
  return `E(${code},p,s,${v}${extra === undefined ? "" : `,${extra}`});`;
}

/** A call of the collector of `schema` on `v`, at path `p` and schema `s` (expressions). */
function collect(schema: Subschema, v: string, p: string, s: string, c: IssuesContext): string {
  if (schema === true) return "";
  return `${c.collectorOf(schema)}(${v},${p},${s});`;
}

function used(schema: JsonSchema, keywords: readonly string[]): boolean {
  return keywords.some((keyword) => schema[keyword] !== undefined);
}

function anyIssues(schema: JsonSchema, v: string, place: Place, c: IssuesContext): string {
  let out = "";
  if (schema.const !== undefined)
    out += `if(!(${oneOfValues([schema.const], v, c.check)}))${report("const", place, v)}`;
  if (Array.isArray(schema.enum)) out += `if(!(${oneOfValues(schema.enum, v, c.check)}))${report("enum", place, v)}`;
  if (schema.oneOf !== undefined || schema.not !== undefined) outside("oneOf and not");
  if (Array.isArray(schema.anyOf)) {
    const branches = schema.anyOf as Subschema[];
    if (branches.some((b) => typeof b === "boolean")) outside("a boolean anyOf branch");
    // A failed union is told branch by branch, by the runtime: each branch's collector rides on the error.
    const calls = branches.map((b) => `${c.check.functionOf(b)}(${v})`).join("||");
    out += `if(!(${calls}))${report("anyOf", place, v, `[${branches.map((b) => c.collectorOf(b)).join(",")}]`)}`;
  }
  if (Array.isArray(schema.allOf))
    (schema.allOf as Subschema[]).forEach((part, i) => {
      out += collect(part, v, "p", at("s.allOf", i), c);
    });
  return out;
}

function numberIssues(schema: JsonSchema, v: string, place: Place): string {
  const tests: Partial<Record<Keyword, string>> = {
    maximum: `!(${v}<=${schema.maximum})`,
    minimum: `!(${v}>=${schema.minimum})`,
    exclusiveMaximum: `!(${v}<${schema.exclusiveMaximum})`,
    exclusiveMinimum: `!(${v}>${schema.exclusiveMinimum})`,
    // As Ajv tests it (parseInt of the quotient), not as the check does: the verdicts are Ajv's.
    multipleOf: `${v}/${schema.multipleOf}!==parseInt(${v}/${schema.multipleOf})`,
  };
  let out = "";
  for (const [keyword, test] of Object.entries(tests) as [Keyword, string][])
    if (schema[keyword] !== undefined) out += `if(${test})${report(keyword, place, v)}`;
  return out;
}

function stringIssues(schema: JsonSchema, v: string, place: Place, c: IssuesContext): string {
  let out = "";
  if (typeof schema.maxLength === "number")
    out += `if(${v}.length>${schema.maxLength}&&h.len(${v})>${schema.maxLength})${report("maxLength", place, v)}`;
  if (typeof schema.minLength === "number" && schema.minLength > 0)
    out += `if(${v}.length<${schema.minLength}||h.len(${v})<${schema.minLength})${report("minLength", place, v)}`;
  if (typeof schema.pattern === "string") {
    const pattern = c.check.constant("r", `new RegExp(${JSON.stringify(schema.pattern)},"u")`);
    out += `if(!${pattern}.test(${v}))${report("pattern", place, v)}`;
  }
  if (typeof schema.format === "string") {
    const format = c.check.constant("m", `h.format(${JSON.stringify(schema.format)})`);
    out += `if(!${format}(${v}))${report("format", place, v)}`;
  }
  return out;
}

function arrayIssues(schema: JsonSchema, v: string, place: Place, c: IssuesContext): string {
  let out = "";
  if (schema.maxItems !== undefined) out += `if(${v}.length>${schema.maxItems})${report("maxItems", place, v)}`;
  if (schema.minItems !== undefined) out += `if(${v}.length<${schema.minItems})${report("minItems", place, v)}`;
  const prefix = Array.isArray(schema.prefixItems) ? (schema.prefixItems as Subschema[]) : [];
  prefix.forEach((item, i) => {
    const call = collect(item, `${v}[${i}]`, child("p", String(i)), at("s.prefixItems", i), c);
    if (call) out += `if(${v}.length>${i})${call}`;
  });
  if (schema.items === false) {
    // Without prefixItems, Ajv reports each item against the false schema instead.
    if (!Array.isArray(schema.prefixItems)) outside("items: false without prefixItems");
    out += `if(${v}.length>${prefix.length})${report("items", place, v)}`;
  } else if (schema.items !== undefined) {
    const i = c.check.name("i");
    const call = collect(schema.items as Subschema, `${v}[${i}]`, `p+"/"+${i}`, "s.items", c);
    if (call) out += `for(let ${i}=${prefix.length};${i}<${v}.length;${i}++)${call}`;
  }
  // Which two items Ajv names depends on how it searched: left to Ajv.
  if (schema.uniqueItems === true) outside("uniqueItems");
  return out;
}

/** True when the runtime's `h.object` writes the type test and key-level errors of `schema`'s value. */
function byObjectHelper(schema: JsonSchema, place: Place): boolean {
  return place.key === undefined && schema.type === "object";
}

function objectIssues(schema: JsonSchema, v: string, place: Place, c: IssuesContext): string {
  let out = "";
  const properties = (schema.properties ?? {}) as Record<string, Subschema>;
  const keys = Object.keys(properties);
  // Ajv leaves a `__proto__` property out of `properties`; so does nothing else here.
  if (keys.includes("__proto__")) outside("a __proto__ property");
  // With h.object, the runtime reports the key counts, the missing and the unexpected keys.
  const helped = byObjectHelper(schema, place);
  if (!helped && (schema.maxProperties !== undefined || schema.minProperties !== undefined)) {
    const n = c.check.name("n");
    out += `const ${n}=Object.keys(${v}).length;`;
    if (schema.maxProperties !== undefined)
      out += `if(${n}>${schema.maxProperties})${report("maxProperties", place, v)}`;
    if (schema.minProperties !== undefined)
      out += `if(${n}<${schema.minProperties})${report("minProperties", place, v)}`;
  }
  if (!helped)
    for (const key of (schema.required ?? []) as string[])
      out += `if(${member(v, key)}===undefined)${report("required", place, v, JSON.stringify(key))}`;
  const patterns = Object.entries((schema.patternProperties ?? {}) as Record<string, Subschema>).map(
    ([pattern, sub]) => [c.check.constant("r", `new RegExp(${JSON.stringify(pattern)},"u")`), pattern, sub] as const,
  );
  const extra = schema.additionalProperties;
  if (extra !== undefined && extra !== true && !(helped && extra === false && patterns.length === 0)) {
    const k = c.check.name("k");
    const declared = keys.map((key) => `case ${JSON.stringify(key)}:`).join("");
    const unmatched = patterns.map(([pattern]) => `${pattern}.test(${k})`).join("||");
    const issues =
      extra === false
        ? report("additionalProperties", place, v, k)
        : collect(extra as Subschema, `${v}[${k}]`, `h.path(p,${k})`, "s.additionalProperties", c);
    const body = unmatched ? `if(!(${unmatched})){${issues}}` : issues;
    if (issues) out += `for(const ${k} in ${v})${declared ? `switch(${k}){${declared}break;default:${body}}` : body}`;
  }
  for (const key of keys) {
    const sub = properties[key] as Subschema;
    const x = c.check.name("x");
    // A property with keywords of its own value only is collected here, placed by the
    // runtime; one with more (a nested object, a union) by its own collector.
    const inline =
      typeof sub === "object" &&
      sub.$ref === undefined &&
      Object.keys(sub).every((k) => !VALIDATING.has(k) || INLINE.has(k));
    const simple = inline && !used(sub, ["properties", "required", "additionalProperties", "patternProperties"]);
    const issues =
      simple && !used(sub, ARRAY_KEYWORDS)
        ? issuesOf(sub, x, { key }, c)
        : collect(sub, x, child("p", key), at("s.properties", key), c);
    if (issues) out += `{const ${x}=${member(v, key)};if(${x}!==undefined){${issues}}}`;
  }
  for (const [pattern, source, sub] of patterns) {
    const k = c.check.name("k");
    const call = collect(sub, `${v}[${k}]`, `h.path(p,${k})`, at("s.patternProperties", source), c);
    if (call) out += `for(const ${k} in ${v})if(${pattern}.test(${k}))${call}`;
  }
  return out;
}

const WRITERS: Readonly<Record<string, (schema: JsonSchema, v: string, place: Place, c: IssuesContext) => string>> = {
  number: (schema, v, place) => numberIssues(schema, v, place),
  string: stringIssues,
  array: arrayIssues,
  object: objectIssues,
};

/**
 * Statements that report every problem of the value named `v` at `place` as Ajv with
 * `allErrors` reports it: the same keywords, in the same order, with the same paths and
 * schemas. Throws {@link OutsideSubset} where the runtime should keep asking Ajv.
 */
function issuesOf(schema: Subschema, v: string, place: Place, c: IssuesContext): string {
  if (schema === true) return "";
  if (schema === false) outside("a false schema");
  if (schema.$ref !== undefined) {
    if (Object.keys(schema).some((keyword) => VALIDATING.has(keyword))) outside("keywords beside a $ref");
    if (schema.$ref === "#") outside("a $ref to the root");
    const target = refTarget(schema.$ref, c.check);
    const name = (schema.$ref as string).slice("#/$defs/".length).replace(/~1/g, "/").replace(/~0/g, "~");
    return collect(target, v, "p", at("S.$defs", name), c);
  }
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  const single = types.length === 1 ? (types[0] as string) : undefined;
  const ownGroup = GROUPS.find(([group]) => group === single);
  // Ajv tests the type first unless it is the one type of a keyword group the schema uses:
  // then the type error comes with that group, after the keywords of any type.
  const typedByGroup = ownGroup !== undefined && used(schema, ownGroup[1]);
  const typeTest = types.map((t) => (TYPE_TESTS[t as string] as (v: string) => string)(v)).join("||");
  let out = types.length > 0 && !typedByGroup ? `if(!(${typeTest}))${report("type", place, v)}` : "";
  out += anyIssues(schema, v, place, c);
  for (const [group, keywords] of GROUPS) {
    if (!used(schema, keywords)) continue;
    const issues = (WRITERS[group] as (typeof WRITERS)[string])(schema, v, place, c);
    const guard = (GUARDS[group] as (v: string) => string)(v);
    if (group === "object" && byObjectHelper(schema, place)) out += `if(h.object(${v},p,s)){${issues}}`;
    else if (typedByGroup && group === single) out += `if(${guard}){${issues}}else ${report("type", place, v)}`;
    else if (issues) out += `if(${guard}){${issues}}`;
  }
  return out;
}

/**
 * The collectors of a generated validator, as statements of its factory: one function
 * `(value, path, schema)` per schema object with nested values (a `$ref` target, a union
 * branch, an object or array value) that reports the errors Ajv would report through the
 * runtime's helpers, and `<check>.issues`, the root's. Empty when the schema uses something
 * the collectors do not cover: the runtime then builds the feedback with Ajv.
 */
export function issuesSource(schema: JsonSchema, check: CheckContext, root: string): string {
  const functions: string[] = [];
  const named = new Map<Subschema, string>();
  const context: IssuesContext = {
    check,
    collectorOf(subschema) {
      const known = named.get(subschema);
      if (known) return known;
      const name = `g${named.size}`;
      named.set(subschema, name);
      const any = check.any;
      // A collector that hands a `$ref` on reads no `s` (see validator-source.ts on `void`).
      const used = any ? "void s;" : "";
      functions.push(
        `function ${name}(v${any},p${any},s${any})${any}{${used}${issuesOf(subschema, "v", {}, context)}}`,
      );
      return name;
    },
  };
  try {
    const collector = context.collectorOf(schema);
    return `var E=h.issue,C=h.child;${functions.join("")}${root}.issues=${collector};`;
  } catch (error) {
    if (error instanceof OutsideSubset) return "";
    throw error;
  }
}
