import type { JsonSchema } from "toolwright";
import { issuesSource } from "./issues-source.js";
import { readerSource } from "./reader-source.js";
import { type CheckContext, checksOf, OutsideSubset } from "./schema-checks.js";

/**
 * The source of a generated validator for `schema`, or `undefined` when the schema uses
 * something outside the subset the generator covers (then the runtime keeps using Ajv).
 *
 * The text is a factory, `function(h,S){...; return f0}` (the root check's number follows
 * the functions written before it, union branches among them): the runtime calls it once, on the
 * tool's first call, with its helpers (code-point length, deep equality, formats, issue
 * reporting) and the schema, and gets back `(value) => boolean`. With `read` (the default),
 * a schema the reader covers also gets `read`, the check and frozen copy of a caller's
 * arguments in one pass (reader-source.ts). Regular expressions and
 * constants are made in the factory, once; each `$defs` entry, each union branch and the root
 * are plain functions that return false at the first keyword that fails, with nested objects
 * and arrays checked inline. With `issues` (the default), the check also carries `issues`,
 * the collector of a rejected value's errors (issues-source.ts). With `typescript`, the same
 * code is written as TypeScript that strict type-checking accepts (`:any` where JavaScript
 * leaves a value untyped), for a `toolwright gen` module.
 *
 * @example
 * ```ts
 * validatorSource({ type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false });
 * // 'function(h,S){function f0(v){if(!(typeof v==="object"&&v!==null&&!Array.isArray(v)))return false;...return true}...f0.issues=g0;return f0}'
 * ```
 */
export function validatorSource(
  schema: JsonSchema,
  { issues = true, read: withReader = true, typescript = false } = {},
): string | undefined {
  const defs = schema.$defs;
  if (defs !== undefined && (typeof defs !== "object" || defs === null || Array.isArray(defs))) return undefined;
  const functions: string[] = [];
  const constants: string[] = [];
  const names: string[] = [];
  const named = new Map<unknown, string>();
  let counter = 0;
  const any = typescript ? ":any" : "";
  const context: CheckContext = {
    any,
    root: schema,
    defs: (defs ?? {}) as Readonly<Record<string, JsonSchema | boolean>>,
    name: (prefix) => `${prefix}${counter++}`,
    constant(prefix, code) {
      const name = context.name(prefix);
      constants.push(`var ${name}=${code};`);
      names.push(name);
      return name;
    },
    functionOf(subschema) {
      const known = named.get(subschema);
      if (known) return known;
      const name = `f${named.size}`;
      named.set(subschema, name);
      // The name is known before the body is written, so a recursive $ref calls it.
      functions.push(`function ${name}(v${any})${any}{${checksOf(subschema, "v", context)}return true}`);
      return name;
    },
  };
  try {
    // Where a reader copies the arguments (reader-source.ts), the root check is the reader's verdict.
    const reader = withReader ? readerSource(schema, context) : undefined;
    let root: string;
    if (reader === undefined) root = context.functionOf(schema);
    else {
      root = `f${named.size}`;
      named.set(schema, root);
      functions.push(reader, `function ${root}(v${any})${any}{return r0(v)!==false}`);
    }
    // The collectors of a rejected value's errors (issues-source.ts) get the schema itself, `S`.
    const collectors = issues ? issuesSource(schema, context, root) : "";
    const read = reader === undefined ? "" : `${root}.read=r0;`;
    // TypeScript with noUnusedLocals or noUnusedParameters refuses a name nothing reads; the
    // factory's helpers and constants are read once here, when it runs.
    const used = typescript ? `void [h,S${collectors ? ",E,C" : ""}${names.map((n) => `,${n}`).join("")}];` : "";
    return `function(h${any},S${any})${any}{${constants.join("")}${functions.join("")}${collectors}${read}${used}return ${root}}`;
  } catch (error) {
    if (error instanceof OutsideSubset) return undefined;
    throw error;
  }
}
