import type { JsonSchema } from "../tools/spec.js";
import { childPath } from "../validation/render.js";
import {
  admits,
  branchFor,
  itemSchema,
  type JsonType,
  propertySchema,
  requiredKeys,
  resolve,
  typeOfValue,
  typesOf,
} from "../validation/schema-nav.js";
import { cloneArguments, defineKey } from "./clone.js";
import type { Repair } from "./repair.js";

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** JSON text decoded into a fresh, depth-checked copy, or `undefined` when it is not JSON or too deep. */
function decode(text: string): unknown {
  try {
    return cloneArguments(JSON.parse(text), false);
  } catch {
    return undefined;
  }
}

/** A string where the schema wants no string: a number, a boolean, or JSON of an object/array. */
function fromString(text: string, types: ReadonlySet<JsonType>, path: string, repairs: Repair[]): unknown {
  if ((types.has("number") || types.has("integer")) && JSON_NUMBER.test(text)) {
    const n = Number(text);
    if (Number.isFinite(n) && (types.has("number") || Number.isInteger(n))) {
      repairs.push({ kind: "string_to_number", path });
      return n;
    }
  }
  if (types.has("boolean") && (text === "true" || text === "false")) {
    repairs.push({ kind: "string_to_boolean", path });
    return text === "true";
  }
  // Only text opening with `{` or `[` can be JSON of an object or array: no parse (and no
  // thrown SyntaxError, the costly part) for the usual `"billing"` where a list was wanted.
  const opening = text.trimStart()[0];
  if ((types.has("object") || types.has("array")) && (opening === "{" || opening === "[")) {
    const parsed = decode(text);
    const type = parsed === undefined ? undefined : typeOfValue(parsed);
    if ((type === "object" && types.has("object")) || (type === "array" && types.has("array"))) {
      repairs.push({ kind: "json_string_decoded", path });
      return parsed;
    }
  }
  return text;
}

/**
 * Applies the safe repairs the schema allows to `value`, recording each one: containers
 * holding a repair are fresh copies, the others are `value`'s own (never changed). Never
 * turns anything into a string, and never touches a value the schema already accepts by
 * type; whether the result is valid is the validator's call.
 */
export function coerce(
  value: unknown,
  schema: JsonSchema | undefined,
  root: JsonSchema,
  path: string,
  repairs: Repair[],
): unknown {
  return repaired(value, schema, root, path, undefined, repairs);
}

/**
 * {@link coerce} of the value at `key` of the value at `parent` (or at `parent` itself):
 * the path is made only for a container or a repair, since most values need neither.
 */
function repaired(
  value: unknown,
  schema: JsonSchema | undefined,
  root: JsonSchema,
  parent: string,
  key: string | number | undefined,
  repairs: Repair[],
): unknown {
  if (!schema) return value;
  let current = value;
  if (typeof current === "string") {
    const types = typesOf(schema, root);
    if (!types || types.has("string")) return current;
    current = fromString(current, types, key === undefined ? parent : childPath(parent, key), repairs);
  }
  if (typeof current !== "object" || current === null) return current;
  const path = key === undefined ? parent : childPath(parent, key);
  if (Array.isArray(current)) {
    const branch = branchFor(schema, root, "array");
    if (!branch) return current;
    const items: unknown[] = current;
    let fixed: unknown[] | undefined;
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      const value = repaired(item, itemSchema(branch, i), root, path, i, repairs);
      if (value !== item) fixed ??= items.slice();
      if (fixed) fixed[i] = value;
    }
    return fixed ?? current;
  }
  const branch = branchFor(schema, root, "object");
  if (!branch) return current;
  const record = current as Record<string, unknown>;
  const keys = Object.keys(record);
  const fixed: unknown[] = [];
  let changed = false;
  for (const key of keys) {
    const item = record[key];
    const sub = propertySchema(branch, key);
    if (item === null && sub && dropsNull(sub, branch, key, root)) {
      repairs.push({ kind: "null_dropped", path: childPath(path, key) });
      fixed.push(DROPPED);
      changed = true;
      continue;
    }
    const value = repaired(item, sub, root, path, key, repairs);
    fixed.push(value);
    changed ||= value !== item;
  }
  // Nothing repaired below: the value itself (a rejected call, most often, where this pass
  // only looked for repairs), not a copy of it.
  if (!changed) return current;
  const copy: Record<string, unknown> = {};
  for (const [i, key] of keys.entries()) {
    const value = fixed[i];
    if (value === DROPPED) continue;
    // As in cloneArguments: plain assignment (faster to build and to read), except `__proto__`.
    if (key === "__proto__") defineKey(copy, key, value);
    else copy[key] = value;
  }
  return copy;
}

/** Marks a dropped key among the repaired values of an object. */
const DROPPED: unique symbol = Symbol("dropped");

/** True when a `null` at the optional key `key` of `branch` is a repair (dropped), not a value its schema admits. */
function dropsNull(sub: JsonSchema, branch: JsonSchema, key: string, root: JsonSchema): boolean {
  const subTypes = typesOf(sub, root);
  return subTypes !== undefined && !admits(subTypes, "null") && !requiredKeys(resolve(branch, root)).includes(key);
}
