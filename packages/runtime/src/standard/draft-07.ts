import { ToolwrightError } from "../errors.js";
import { isSchemaObject, mapSubschemas, type SchemaObject } from "./subschemas.js";

/** 2019-09 and 2020-12 keywords draft-07 has nothing for: a schema using one cannot be written there. */
const NO_DRAFT_07 = [
  "unevaluatedProperties",
  "unevaluatedItems",
  "minContains",
  "maxContains",
  "$anchor",
  "$dynamicRef",
  "$dynamicAnchor",
  "$recursiveRef",
  "$recursiveAnchor",
];

function rewrite(node: SchemaObject, path: string, owner: string): SchemaObject {
  const out = mapSubschemas(node, path, (child, at) => rewrite(child, at, owner));
  for (const key of NO_DRAFT_07) {
    if (key in out) {
      throw new ToolwrightError(
        `"${owner}": JSON Schema draft-07 has no "${key}" (at ${path || "the root"}); ask for target "draft-2020-12".`,
      );
    }
  }
  if ("$defs" in out) {
    out.definitions = { ...(isSchemaObject(out.definitions) ? out.definitions : {}), ...(out.$defs as SchemaObject) };
    delete out.$defs;
  }
  if (Array.isArray(out.prefixItems)) {
    // A tuple: positions in `items` (an array), the rest in `additionalItems`.
    if ("items" in out) out.additionalItems = out.items;
    out.items = out.prefixItems;
    delete out.prefixItems;
  }
  const dependencies: SchemaObject = isSchemaObject(out.dependencies) ? { ...out.dependencies } : {};
  for (const key of ["dependentRequired", "dependentSchemas"]) {
    if (isSchemaObject(out[key])) Object.assign(dependencies, out[key]);
    delete out[key];
  }
  if (Object.keys(dependencies).length > 0) out.dependencies = dependencies;
  if (typeof out.$ref === "string") {
    const $ref = out.$ref.replace(/^#\/\$defs\//, "#/definitions/");
    const { $ref: _ref, ...siblings } = out;
    // Draft-07 ignores every keyword beside a $ref: the siblings stay in force beside an allOf.
    if (Object.keys(siblings).length === 0) return { $ref };
    const allOf = Array.isArray(siblings.allOf) ? siblings.allOf : [];
    return { ...siblings, allOf: [...allOf, { $ref }] };
  }
  return out;
}

/**
 * A canonical (2020-12) schema in draft-07 keywords: `$defs` as `definitions` (references
 * rewritten), tuples as `items` arrays with `additionalItems`, `dependentRequired` and
 * `dependentSchemas` as `dependencies`, and a `$ref` with siblings inside an `allOf`. A
 * keyword draft-07 has no form for throws, naming it.
 */
export function toDraft07(schema: SchemaObject, owner: string): SchemaObject {
  return rewrite(schema, "", owner);
}
