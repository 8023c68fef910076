import type { JsonSchema } from "toolwright";
import { CHECKED_NUMBER_FORMATS, CHECKED_STRING_FORMATS } from "../validator/formats.js";

/** The checked format closest to one nothing checks. */
const INSTEAD: Readonly<Record<string, string>> = {
  "idn-email": "email",
  "idn-hostname": "hostname",
  iri: "uri",
  "iri-reference": "uri-reference",
};

/** A keyword the schema would announce but no validator enforces, at `path`. */
export interface UncheckedConstraint {
  readonly path: string;
  readonly message: string;
}

const isNode = (value: unknown): value is JsonSchema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function typesOf(node: JsonSchema): string[] | undefined {
  if (typeof node.type === "string") return [node.type];
  return Array.isArray(node.type) ? node.type.filter((t): t is string => typeof t === "string") : undefined;
}

function formatProblem(node: JsonSchema, format: string): string | undefined {
  if (node["x-toolwright-date"] === true) {
    return format === "date-time" || format === "date"
      ? undefined
      : `is a \`Date\` tagged \`@format ${format}\`, but a Date travels as a date-time string (or, tagged \`@format date\`, as a date). Fix: remove the tag, write \`@format date\`, or take a \`string\` with \`@format ${format}\``;
  }
  const types = typesOf(node);
  const forStrings = CHECKED_STRING_FORMATS.has(format);
  const forNumbers = CHECKED_NUMBER_FORMATS.has(format);
  if (!forStrings && !forNumbers) {
    const instead = INSTEAD[format];
    return `has \`@format ${format}\`, which no validator checks, so the schema would promise what no call is held to. Fix: ${instead ? `use \`@format ${instead}\`, or ` : "use "}a format toolwright checks (such as email, hostname, uri, date-time, uuid; the docs' type table lists them all) or a \`@pattern\``;
  }
  const applies = forStrings ? ["string"] : ["number", "integer"];
  if (types && !types.some((t) => applies.includes(t))) {
    return `has \`@format ${format}\`, which is only checked on ${forStrings ? "strings" : "numbers"}, and this is ${types.join(" or ")}. Fix: remove the tag, or put it on a ${forStrings ? "string" : "number"}`;
  }
  return undefined;
}

function patternProblem(pattern: string): string | undefined {
  try {
    new RegExp(pattern, "u");
    return undefined;
  } catch (error) {
    return `has \`@pattern ${pattern}\`, which is not a valid regular expression (${(error as Error).message}), so no call could be checked. Fix: correct the pattern (JSON Schema patterns are JavaScript regular expressions with the \`u\` flag)`;
  }
}

/**
 * Every `format` and `pattern` of a finished schema that no validator would enforce: a
 * format neither ajv-formats nor the generated checks know (`idn-email`), one on a type
 * it never applies to, a `Date` with a format other than `date-time` or `date`, a pattern
 * that is no regular expression. `root` names the schema in paths (`args`, `return`).
 */
export function uncheckedConstraints(schema: JsonSchema, root: string): UncheckedConstraint[] {
  const out: UncheckedConstraint[] = [];
  const visit = (node: unknown, path: string) => {
    if (!isNode(node)) return;
    const format = typeof node.format === "string" ? formatProblem(node, node.format) : undefined;
    if (format) out.push({ path, message: format });
    const pattern = typeof node.pattern === "string" ? patternProblem(node.pattern) : undefined;
    if (pattern) out.push({ path, message: pattern });
    for (const [key, child] of Object.entries(isNode(node.properties) ? node.properties : {}))
      visit(child, `${path}.${key}`);
    for (const [key, child] of Object.entries(isNode(node.$defs) ? node.$defs : {})) visit(child, `$defs.${key}`);
    for (const [key, child] of Object.entries(isNode(node.patternProperties) ? node.patternProperties : {})) {
      const problem = patternProblem(key);
      if (problem) out.push({ path: `${path}[key]`, message: problem });
      visit(child, `${path}[key]`);
    }
    visit(node.additionalProperties, `${path}[key]`);
    visit(node.items, `${path}[]`);
    if (Array.isArray(node.prefixItems)) {
      for (const [i, child] of node.prefixItems.entries()) visit(child, `${path}[${i}]`);
    }
    for (const key of ["anyOf", "oneOf", "allOf"])
      if (Array.isArray(node[key])) for (const child of node[key]) visit(child, path);
  };
  visit(schema, root);
  return out;
}
