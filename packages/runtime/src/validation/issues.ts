import type { ValidationIssue } from "../errors.js";
import type { JsonSchema } from "../tools/spec.js";
import type { ErrorObject } from "./compile.js";
import { nearMiss } from "./near-miss.js";
import { at, childPath, quote, renderValue, shownPath } from "./render.js";
import { declaredKeys, describe, propertySchema } from "./schema-nav.js";
import { type BranchIssues, unionIssues } from "./union-issues.js";

type Params = Record<string, unknown>;

function schemaOf(error: ErrorObject): JsonSchema {
  return (error.parentSchema ?? {}) as JsonSchema;
}

function count(n: unknown, noun: string): string {
  return `${String(n)} ${noun}${n === 1 ? "" : "s"}`;
}

const COMPARISONS: Params = { minimum: ">=", maximum: "<=", exclusiveMinimum: ">", exclusiveMaximum: "<" };

/**
 * Words for a failed constraint keyword (`minimum`, `pattern`, ...); never Ajv's own text.
 * Limits are read from the schema (Ajv's params hold the same values), so the errors of
 * the generated collectors need params only for keys.
 */
function constraint(error: ErrorObject): string {
  const p = error.params as Params;
  const { keyword } = error;
  const limit = schemaOf(error)[keyword];
  switch (keyword) {
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return `must be ${COMPARISONS[keyword]} ${limit}`;
    case "multipleOf":
      return `must be a multiple of ${limit}`;
    case "minLength":
      return `must have at least ${count(limit, "character")}`;
    case "maxLength":
      return `must have at most ${count(limit, "character")}`;
    case "pattern":
      return `must match the pattern ${limit}`;
    case "format":
      return `must be a valid ${limit}`;
    case "minItems":
      return `must have at least ${count(limit, "item")}`;
    case "maxItems":
      return `must have at most ${count(limit, "item")}`;
    case "uniqueItems":
      return `must not repeat items (items ${p.j} and ${p.i} are equal)`;
    case "minProperties":
      return `must have at least ${count(limit, "key")}`;
    case "maxProperties":
      return `must have at most ${count(limit, "key")}`;
    case "oneOf":
      return "matches more than one of the allowed shapes; make it match exactly one";
    case "false schema":
      return "is not allowed here";
    case "items":
      // Only `items: false` after `prefixItems` fails as a whole.
      return `must have at most ${count((schemaOf(error).prefixItems as unknown[]).length, "item")}`;
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

/** Where the checked value sits in the arguments, and how a received value is shown. */
export interface IssueContext {
  /** JSON Pointer of the checked value in the arguments; `""` for the arguments themselves. */
  readonly base?: string;
  /** Renders a received value at `path`; {@link renderValue} by default. */
  readonly render?: (value: unknown, path: string) => string;
}

function issueOf(error: ErrorObject, root: JsonSchema, context: IssueContext): ValidationIssue | undefined {
  const path = `${context.base ?? ""}${error.instancePath}`;
  // What was received, rendered only where a message shows it (never for a key problem).
  const got = (): string => (context.render ?? renderValue)(error.data, path);
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
        message: `${at(path)}expected ${describe(schemaOf(error), root)}, got ${got()}`,
      };
    case "enum":
    case "const":
      return {
        code: "invalid_enum",
        path,
        message: `${at(path)}expected ${describe(schemaOf(error), root)}, got ${got()}`,
      };
    case "if":
      // Always accompanied by the failing `then`/`else` rule, which says more.
      return undefined;
    default:
      return {
        code: "invalid_value",
        path,
        message: `${at(path)}${constraint(error)}, got ${got()}`,
      };
  }
}

/** Where an issue goes in the list: unexpected keys, then missing keys, then the rest. */
function rankOf({ code }: ValidationIssue): number {
  return code === "unexpected_key" ? 0 : code === "missing_key" ? 1 : 2;
}

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

function failedUnion(error: ErrorObject): boolean {
  return error.keyword === "anyOf" || (error.keyword === "oneOf" && !(error.params as Params).passingSchemas);
}

/**
 * True for an error a failed union accounts for: the union's value is checked again
 * branch by branch (see unionIssues), so every error at or under it goes, even one from a
 * `$ref` branch whose schemaPath starts elsewhere. `unions` holds the last failed union
 * per place, the outer one when two share it.
 */
function inUnion(error: ErrorObject, unions: ReadonlyMap<string, ErrorObject>): boolean {
  const path = error.instancePath;
  const here = unions.get(path);
  if (here !== undefined && here !== error) return true;
  for (let slash = path.lastIndexOf("/"); slash > 0; slash = path.lastIndexOf("/", slash - 1)) {
    if (unions.has(path.slice(0, slash))) return true;
  }
  return path !== "" && unions.has("");
}

/** Issues found in a value; `complete` is false when there were too many to list them all. */
export interface IssueList {
  readonly issues: ValidationIssue[];
  readonly complete: boolean;
}

/**
 * Turns Ajv's errors into issues a model can act on: one per problem, unexpected keys
 * first, then missing keys, then wrong values in document order. A value that fits no
 * branch of a union gets the problems of the branch it chose by its discriminator, or of
 * the closest one (see `unionIssues`); one of no branch's type gets "expected A or B".
 */
export function issuesFromAjv(all: readonly ErrorObject[], root: JsonSchema, context: IssueContext = {}): IssueList {
  // Most calls have no failed union: then no map, no lookup per error.
  let unions: Map<string, ErrorObject> | undefined;
  for (const error of all) {
    if (!failedUnion(error)) continue;
    unions ??= new Map();
    unions.set(error.instancePath, error);
  }
  const within = unions;
  const kept = within === undefined ? all : all.filter((error) => !inUnion(error, within));
  const errors =
    kept.length <= MAX_ERRORS
      ? kept
      : [...kept.filter(keyed).slice(0, MAX_ERRORS), ...kept.filter((e) => !keyed(e)).slice(0, MAX_ERRORS)];
  const issues: ValidationIssue[] = [];
  // Told once per message. A call has a few issues: comparing (by length first) costs less
  // than hashing each new message; past a few, a set keeps the cost linear.
  let seen: Set<string> | undefined;
  const add = (issue: ValidationIssue | undefined): void => {
    if (!issue) return;
    const { message } = issue;
    if (seen) {
      if (seen.has(message)) return;
      seen.add(message);
    } else {
      for (const told of issues) if (told.message === message) return;
      if (issues.length === 8) seen = new Set(issues.map((told) => told.message).concat(message));
    }
    issues.push(issue);
  };
  // A plain loop, not flatMap: this runs on every rejected call, and flatMap was its costliest line.
  for (const error of errors) {
    if (within?.get(error.instancePath) !== error) {
      add(issueOf(error, root, context));
      continue;
    }
    const base = `${context.base ?? ""}${error.instancePath}`;
    // A branch's errors were found on the value alone: their paths continue the union's.
    const inBranch: BranchIssues = (found, branch, path) =>
      issuesFromAjv(found, branch, { base: path, ...(context.render ? { render: context.render } : {}) }).issues;
    const branchIssues = unionIssues(error, root, base, inBranch);
    if (branchIssues) for (const issue of branchIssues) add(issue);
    else add(issueOf({ ...error, keyword: "anyOf" }, root, context));
  }
  return { issues: ranked(issues), complete: errors === kept };
}

/**
 * Unexpected keys first, then missing keys, then the rest, each group in document order:
 * three passes, where a comparator sort was a third of turning a call's errors into issues.
 */
function ranked(issues: readonly ValidationIssue[]): ValidationIssue[] {
  const ordered: ValidationIssue[] = [];
  for (let r = 0; r < 3; r++) for (const issue of issues) if (rankOf(issue) === r) ordered.push(issue);
  return ordered;
}
