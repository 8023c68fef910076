import { DATE_KEYWORD, type JsonSchema } from "../tools/spec.js";
import type { DialectNote, DialectSeverity } from "./types.js";

/** A schema node we can read and build; the canonical schema is plain JSON. */
export type SchemaNode = Record<string, unknown>;

/** Keywords whose value is one subschema. */
const SINGLE = ["items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames"] as const;
/** Keywords whose value is a list of subschemas. */
const LIST = ["anyOf", "oneOf", "allOf", "prefixItems"] as const;
/** Keywords whose value maps names to subschemas. */
const MAP = ["properties", "$defs", "definitions", "patternProperties", "dependentSchemas"] as const;

/** True for a schema object (not an array, not `true`/`false`). */
export function isNode(value: unknown): value is SchemaNode {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Escapes one JSON Pointer segment. */
export function pointer(base: string, ...segments: (string | number)[]): string {
  return segments.reduce<string>((acc, s) => `${acc}/${String(s).replaceAll("~", "~0").replaceAll("/", "~1")}`, base);
}

/**
 * Copies `node`, replacing each direct subschema with `visit(child, childPath)`.
 * Dialects recurse through this so no rule forgets a place a subschema can hide.
 */
export function mapChildren(
  node: SchemaNode,
  path: string,
  visit: (child: SchemaNode, path: string) => SchemaNode,
): SchemaNode {
  const out: SchemaNode = { ...node };
  for (const key of SINGLE) {
    const child = node[key];
    if (isNode(child)) out[key] = visit(child, pointer(path, key));
  }
  for (const key of LIST) {
    const list = node[key];
    if (Array.isArray(list)) {
      out[key] = list.map((child, i) => (isNode(child) ? visit(child, pointer(path, key, i)) : child));
    }
  }
  for (const key of MAP) {
    const map = node[key];
    if (isNode(map)) {
      out[key] = Object.fromEntries(
        Object.entries(map).map(([name, child]) => [
          name,
          isNode(child) ? visit(child, pointer(path, key, name)) : child,
        ]),
      );
    }
  }
  return out;
}

/** Collects notes while a dialect rewrites a schema. */
export class NoteList {
  readonly notes: DialectNote[] = [];

  add(severity: DialectSeverity, code: string, path: string, message: string): void {
    this.notes.push({ severity, code, path, message });
  }
}

/**
 * Removes `keys` from `node` and appends them to its description as `key: value`, so the
 * model still reads the constraint the target cannot enforce (validation still checks it).
 */
export function moveToDescription(
  node: SchemaNode,
  keys: readonly string[],
  path: string,
  notes: NoteList,
  target: string,
): SchemaNode {
  const moved = keys.filter((k) => k in node);
  if (moved.length === 0) return node;
  const out: SchemaNode = { ...node };
  const parts = moved.map((k) => `${k}: ${JSON.stringify(node[k])}`);
  for (const k of moved) delete out[k];
  // Keys a pattern allowed must stay allowed once the pattern is gone: the object opens up
  // to their schemas (a strict target then refuses it as it refuses any open object).
  if (moved.includes("patternProperties") && isNode(node.patternProperties) && node.additionalProperties !== true) {
    const patterned = Object.values(node.patternProperties).filter(isNode);
    const extra = isNode(node.additionalProperties) ? [node.additionalProperties, ...patterned] : patterned;
    if (extra.length > 0) out.additionalProperties = extra.length === 1 ? (extra[0] as SchemaNode) : { anyOf: extra };
  }
  const before = typeof node.description === "string" && node.description.length > 0 ? `${node.description} ` : "";
  out.description = `${before}(${parts.join("; ")})`;
  notes.add("info", "keyword-moved", path, `${moved.join(", ")} not accepted by ${target}: moved into the description`);
  return out;
}

/** The node's `type` as a list (`[]` when absent). */
export function typesOf(node: SchemaNode): string[] {
  const t = node.type;
  if (typeof t === "string") return [t];
  return Array.isArray(t) ? t.filter((x): x is string => typeof x === "string") : [];
}

/** Reports a root that is not a plain `type: "object"` schema: every function-calling API needs one. */
export function checkRootObject(schema: JsonSchema, notes: NoteList, target: string): void {
  if (schema.type !== "object" || "anyOf" in schema || "oneOf" in schema) {
    notes.add(
      "error",
      "root-not-object",
      "",
      `${target} needs tool parameters to be one object schema (type "object", no anyOf/oneOf at the root); ` +
        "wrap the parameters in an object with named properties",
    );
  }
}

/** Names of `$defs` entries that reach themselves through `$ref`, plus whether the root is referenced (`#`). */
export function recursiveDefs(schema: JsonSchema): Set<string> {
  const defs = isNode(schema.$defs) ? schema.$defs : {};
  const edges = new Map<string, Set<string>>();
  const collect = (node: unknown, into: Set<string>): void => {
    if (Array.isArray(node)) for (const n of node) collect(n, into);
    else if (isNode(node)) {
      for (const [k, v] of Object.entries(node)) {
        if (k === "$ref" && typeof v === "string") into.add(refName(v) ?? "#");
        else collect(v, into);
      }
    }
  };
  for (const [name, def] of Object.entries(defs)) {
    const into = new Set<string>();
    collect(def, into);
    edges.set(name, into);
  }
  const rootRefs = new Set<string>();
  const { $defs: _ignored, ...rootBody } = schema;
  collect(rootBody, rootRefs);
  const recursive = new Set<string>();
  if (rootRefs.has("#")) recursive.add("#");
  for (const start of edges.keys()) {
    const seen = new Set<string>();
    const stack = [...(edges.get(start) ?? [])];
    while (stack.length > 0) {
      const next = stack.pop() as string;
      if (next === start) {
        recursive.add(start);
        break;
      }
      if (next === "#") recursive.add("#");
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(...(edges.get(next) ?? []));
    }
  }
  return recursive;
}

/** `"#/$defs/Name"` -> `"Name"`; `undefined` for any other reference. */
export function refName(ref: string): string | undefined {
  const m = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(ref);
  return m?.[1]?.replaceAll("~1", "/").replaceAll("~0", "~");
}

/** `node` and every subschema without {@link DATE_KEYWORD}, which only the runtime reads. */
function withoutRuntimeKeywords(node: SchemaNode): SchemaNode {
  const { [DATE_KEYWORD]: _date, ...rest } = node;
  return mapChildren(rest, "", withoutRuntimeKeywords);
}

/**
 * The root without `$schema`, `$id` and `$comment`, and no node with the runtime's own
 * `x-toolwright-date`: no function-calling API wants them.
 */
export function withoutMeta(schema: JsonSchema): SchemaNode {
  const { $schema: _s, $id: _i, $comment: _c, ...rest } = schema;
  return withoutRuntimeKeywords(rest);
}

/**
 * A tuple (`prefixItems`, optionally with rest `items`) as a plain array whose items are
 * any of its element types; the length bounds it had are kept, and a closed tuple
 * (`items: false`) gets its length as `maxItems`.
 */
export function tupleAsArray(node: SchemaNode): SchemaNode {
  const elements = Array.isArray(node.prefixItems) ? node.prefixItems : [];
  const rest = isNode(node.items) ? [node.items] : [];
  const { prefixItems: _p, ...out } = node;
  const all = [...elements, ...rest];
  out.items = all.length === 1 ? all[0] : { anyOf: all };
  if (node.items === false && out.maxItems === undefined) out.maxItems = elements.length;
  return out;
}

/**
 * For targets that take `anyOf` but neither `oneOf` nor `prefixItems`: `oneOf` is sent as
 * `anyOf` (the compiler emits it over disjoint shapes, so it validates the same) and a
 * tuple as an array of its element types, each change noted.
 */
export function asAnyOfAndArrays(node: SchemaNode, path: string, notes: NoteList, target: string): SchemaNode {
  let out = node;
  if (Array.isArray(out.oneOf)) {
    const { oneOf, ...rest } = out;
    out = { ...rest, anyOf: oneOf };
    notes.add("info", "oneof-as-anyof", path, `${target}: no oneOf, sent as anyOf`);
  }
  if (Array.isArray(out.prefixItems)) {
    out = tupleAsArray(out);
    notes.add(
      "info",
      "tuple-as-array",
      path,
      `${target}: no prefixItems, the tuple is sent as an array of its element types`,
    );
  }
  return out;
}
