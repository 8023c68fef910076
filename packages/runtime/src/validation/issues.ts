import type { ValidationIssue } from "../errors.js";
import type { JsonSchema } from "../spec.js";
import type { ErrorObject } from "./compile.js";
import { nearMiss } from "./near-miss.js";
import { at, childPath, quote, renderValue, shownPath } from "./render.js";
import { declaredKeys, describe, propertySchema } from "./schema-nav.js";

type Params = Record<string, unknown>;

function schemaOf(error: ErrorObject): JsonSchema {
  return (error.parentSchema ?? {}) as JsonSchema;
}

function count(n: unknown, noun: string): string {
  return `${String(n)} ${noun}${n === 1 ? "" : "s"}`;
}

/** Words for a failed constraint keyword (`minimum`, `pattern`, ...); never Ajv's own text. */
function constraint(error: ErrorObject): string {
  const p = error.params as Params;
  switch (error.keyword) {
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return `must be ${p.comparison} ${p.limit}`;
    case "multipleOf":
      return `must be a multiple of ${p.multipleOf}`;
    case "minLength":
      return `must have at least ${count(p.limit, "character")}`;
    case "maxLength":
      return `must have at most ${count(p.limit, "character")}`;
    case "pattern":
      return `must match the pattern ${p.pattern}`;
    case "format":
      return `must be a valid ${p.format}`;
    case "minItems":
      return `must have at least ${count(p.limit, "item")}`;
    case "maxItems":
      return `must have at most ${count(p.limit, "item")}`;
    case "uniqueItems":
      return `must not repeat items (items ${p.j} and ${p.i} are equal)`;
    case "minProperties":
      return `must have at least ${count(p.limit, "key")}`;
    case "maxProperties":
      return `must have at most ${count(p.limit, "key")}`;
    case "oneOf":
      return "matches more than one of the allowed shapes; make it match exactly one";
    case "false schema":
      return "is not allowed here";
    case "items":
    case "unevaluatedItems":
      return `must have at most ${count(p.limit, "item")}`;
    case "contains":
      return p.maxContains === undefined
        ? `must contain at least ${count(p.minContains ?? 1, "matching item")}`
        : `must contain at most ${count(p.maxContains, "matching item")}`;
    case "not":
      return "must not match the excluded shape";
    case "dependentRequired":
      return `must also have "${p.missingProperty}" when "${p.property}" is given`;
    case "propertyNames":
      return `has a key that is not allowed: ${quote(String(p.propertyName), "a key")}`;
    default:
      return `breaks the "${error.keyword}" rule of the schema`;
  }
}

function issueOf(error: ErrorObject, root: JsonSchema): ValidationIssue | undefined {
  const path = error.instancePath;
  const p = error.params as Params;
  switch (error.keyword) {
    case "additionalProperties":
    case "unevaluatedProperties": {
      const key = String(p.additionalProperty ?? p.unevaluatedProperty);
      const accepted = declaredKeys(schemaOf(error));
      const meant = nearMiss(key, accepted);
      const hint = meant ? ` (did you mean "${meant}"?)` : "";
      const where = path === "" ? "" : `; accepted keys in ${shownPath(path)}: ${accepted.join(", ") || "none"}`;
      return {
        code: "unexpected_key",
        path: childPath(path, key),
        message: `${at(path)}unexpected key ${quote(key, "a key")}${hint}${where}`,
      };
    }
    case "required": {
      const key = String(p.missingProperty);
      const sub = propertySchema(schemaOf(error), key);
      const type = sub ? ` (${describe(sub, root)})` : "";
      return {
        code: "missing_key",
        path: childPath(path, key),
        message: `${at(path)}missing required key "${key}"${type}`,
      };
    }
    case "type":
    case "anyOf":
      return {
        code: "invalid_type",
        path,
        message: `${at(path)}expected ${describe(schemaOf(error), root)}, got ${renderValue(error.data)}`,
      };
    case "enum":
    case "const":
      return {
        code: "invalid_enum",
        path,
        message: `${at(path)}expected ${describe(schemaOf(error), root)}, got ${renderValue(error.data)}`,
      };
    case "if":
      // Always accompanied by the failing `then`/`else` rule, which says more.
      return undefined;
    default:
      return {
        code: "invalid_value",
        path,
        message: `${at(path)}${constraint(error)}, got ${renderValue(error.data)}`,
      };
  }
}

const rank: Record<string, number> = { unexpected_key: 0, missing_key: 1 };

/**
 * Past this many Ajv errors (300,000 wrong array items, say) only the first are turned
 * into issues: the message lists 20 at most, and rendering all would cost seconds.
 */
const MAX_ERRORS = 200;

function keyed(error: ErrorObject): boolean {
  return (
    error.keyword === "required" ||
    error.keyword === "additionalProperties" ||
    error.keyword === "unevaluatedProperties"
  );
}

/** Issues found in a value; `complete` is false when there were too many to list them all. */
export interface IssueList {
  readonly issues: ValidationIssue[];
  readonly complete: boolean;
}

/**
 * Turns Ajv's errors into issues a model can act on: one per problem, unexpected keys
 * first, then missing keys, then wrong values in document order. Errors inside the
 * branches of a failed `anyOf` are folded into that one "expected A or B" issue.
 */
export function issuesFromAjv(all: readonly ErrorObject[], root: JsonSchema): IssueList {
  const errors =
    all.length <= MAX_ERRORS
      ? all
      : [...all.filter(keyed).slice(0, MAX_ERRORS), ...all.filter((e) => !keyed(e)).slice(0, MAX_ERRORS)];
  const unions = errors.filter(
    (e) => e.keyword === "anyOf" || (e.keyword === "oneOf" && !(e.params as Params).passingSchemas),
  );
  const kept = errors.filter(
    (e) =>
      !unions.some(
        (u) => u !== e && e.schemaPath.startsWith(`${u.schemaPath}/`) && e.instancePath.startsWith(u.instancePath),
      ),
  );
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  for (const error of kept) {
    const issue =
      error.keyword === "oneOf" && unions.includes(error)
        ? issueOf({ ...error, keyword: "anyOf" }, root)
        : issueOf(error, root);
    if (!issue || seen.has(issue.message)) continue;
    seen.add(issue.message);
    issues.push(issue);
  }
  const sorted = issues
    .map((issue, index) => ({ issue, index }))
    .sort((a, b) => (rank[a.issue.code] ?? 2) - (rank[b.issue.code] ?? 2) || a.index - b.index)
    .map(({ issue }) => issue);
  return { issues: sorted, complete: errors === all };
}
