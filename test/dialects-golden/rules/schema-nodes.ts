/** A schema node found in a document, with its JSON Pointer. */
export interface Located {
  readonly node: Record<string, unknown>;
  readonly path: string;
  /** How many object/array levels above it. */
  readonly depth: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Every subschema of a JSON Schema or Gemini Schema document, found by the places a
 * schema can sit. Written apart from the dialects' own walker so a checker does not
 * share its blind spots.
 */
export function nodes(root: Record<string, unknown>): Located[] {
  const out: Located[] = [];
  const visit = (node: Record<string, unknown>, path: string, depth: number) => {
    out.push({ node, path, depth });
    for (const key of ["items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames"]) {
      const child = node[key];
      if (isObject(child)) visit(child, `${path}/${key}`, depth + 1);
    }
    for (const key of ["anyOf", "oneOf", "allOf", "prefixItems"]) {
      const list = node[key];
      if (!Array.isArray(list)) continue;
      for (const [i, c] of list.entries()) if (isObject(c)) visit(c, `${path}/${key}/${i}`, depth);
    }
    for (const key of ["properties", "$defs", "definitions", "patternProperties", "dependentSchemas"]) {
      const map = node[key];
      if (isObject(map)) {
        for (const [name, c] of Object.entries(map)) {
          if (isObject(c)) visit(c, `${path}/${key}/${name}`, key === "properties" ? depth + 1 : depth);
        }
      }
    }
  };
  visit(root, "", 0);
  return out;
}

/** The node's type keyword as a list. */
export function typeList(node: Record<string, unknown>): unknown[] {
  return Array.isArray(node.type) ? node.type : node.type === undefined ? [] : [node.type];
}

/** True when the node describes an object. */
export function isObjectNode(node: Record<string, unknown>): boolean {
  return typeList(node).includes("object") || isObject(node.properties);
}
