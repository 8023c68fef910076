import type { ValidationIssue } from "../errors.js";
import type { IssueCollector, JsonSchema } from "../tools/spec.js";
import { checkerFor, type ErrorObject } from "./compile.js";
import { type CollectedError, collectErrors } from "./generated-helpers.js";
import { at, childPath, quote, renderValue } from "./render.js";
import { admits, branches, declaredKeys, propertySchema, resolve, typeOfValue, typesOf } from "./schema-nav.js";

/** Turns the Ajv errors of a value checked against one branch into issues placed at `base`. */
export type BranchIssues = (
  errors: readonly ErrorObject[],
  branch: JsonSchema,
  base: string,
) => readonly ValidationIssue[];

const standalone = new WeakMap<JsonSchema, JsonSchema>();

/** A branch as a schema of its own: its `$ref`s still reach the root's `$defs`. */
function alone(branch: JsonSchema, root: JsonSchema): JsonSchema {
  let made = standalone.get(branch);
  if (!made) {
    made = root.$defs === undefined ? branch : { ...branch, $defs: root.$defs };
    standalone.set(branch, made);
  }
  return made;
}

function constOf(schema: JsonSchema | undefined, root: JsonSchema): { value: unknown } | undefined {
  if (!schema) return undefined;
  const s = resolve(schema, root);
  if (Object.hasOwn(s, "const")) return { value: s.const };
  return Array.isArray(s.enum) && s.enum.length === 1 ? { value: s.enum[0] } : undefined;
}

/** The key each object branch pins to a constant of its own (`kind: "circle"`), if there is one. */
function discriminator(parts: readonly JsonSchema[], root: JsonSchema): string | undefined {
  const [first] = parts;
  if (!first || parts.length < 2) return undefined;
  return declaredKeys(first).find((key) => {
    const values = parts.map((p) => constOf(propertySchema(p, key), root));
    const distinct = new Set(values.map((v) => JSON.stringify(v?.value)));
    return values.every((v) => v !== undefined) && distinct.size === parts.length;
  });
}

/** `the one with keys name, meows, lives` */
function keysOf(branch: JsonSchema): string {
  const keys = declaredKeys(branch);
  if (keys.length === 0) return "the one with no keys";
  return `the one with keys ${keys.slice(0, 5).join(", ")}${keys.length > 5 ? ", …" : ""}`;
}

function noted(issues: readonly ValidationIssue[], note: string): ValidationIssue[] {
  return issues.map((issue) => ({ ...issue, message: `${issue.message} ${note}` }));
}

/** The issues of `value` in one branch: from the branch's generated collector when there is one, else from Ajv. */
function issuesIn(
  branch: JsonSchema,
  root: JsonSchema,
  value: unknown,
  path: string,
  toIssues: BranchIssues,
  collect: IssueCollector | undefined,
) {
  const schema = alone(branch, root);
  return toIssues(collect ? collectErrors(collect, value, schema) : (checkerFor(schema)(value) ?? []), schema, path);
}

/**
 * The issues of a value that matched none of a union's branches, told as the model needs
 * them: the violations of the branch it chose by the discriminator (`kind: "circle"`), or,
 * without one, of the closest branch of its JSON type (the one with the fewest problems).
 * `undefined` when the value fits no branch's type: then "expected A or B, got ..." says it best.
 */
export function unionIssues(
  error: ErrorObject,
  root: JsonSchema,
  path: string,
  toIssues: BranchIssues,
): readonly ValidationIssue[] | undefined {
  const parts = branches(resolve((error.parentSchema ?? {}) as JsonSchema, root), root);
  // A generated collector's union error carries one collector per branch, in order.
  const collectors = (error as CollectedError).branches;
  const collectorOf = (branch: JsonSchema) => collectors?.[parts.indexOf(branch)];
  const value: unknown = error.data;
  const typed = parts.filter((p) => {
    const types = typesOf(p, root);
    return types === undefined || admits(types, typeOfValue(value));
  });
  if (typed.length === 0) return undefined;
  const isObject = typeof value === "object" && value !== null && !Array.isArray(value);
  const key = isObject ? discriminator(typed, root) : undefined;
  if (key !== undefined) {
    const sent = (value as Record<string, unknown>)[key];
    const choices = typed.map((p) => JSON.stringify(constOf(propertySchema(p, key), root)?.value)).join(", ");
    const chosen = typed.find((p) => constOf(propertySchema(p, key), root)?.value === sent);
    if (!Object.hasOwn(value as object, key)) {
      const message = `${at(path)}missing required key "${key}" (one of ${choices}), which says which shape this is`;
      return [{ code: "missing_key", path: childPath(path, key), message }];
    }
    if (!chosen) {
      const where = childPath(path, key);
      return [
        {
          code: "invalid_enum",
          path: where,
          message: `${at(where)}expected one of ${choices}, got ${renderValue(sent)}`,
        },
      ];
    }
    const named = typeof sent === "string" ? quote(sent, "a string") : String(sent);
    return noted(issuesIn(chosen, root, value, path, toIssues, collectorOf(chosen)), `(for ${key} ${named})`);
  }
  let best: { issues: readonly ValidationIssue[]; branch: JsonSchema } | undefined;
  for (const branch of typed) {
    const found = issuesIn(branch, root, value, path, toIssues, collectorOf(branch));
    if (!best || found.length < best.issues.length) best = { issues: found, branch };
  }
  if (!best || best.issues.length === 0) return undefined;
  if (typed.length === 1) return best.issues;
  return noted(
    best.issues,
    `(closest of the ${parts.length} allowed shapes at ${path || "the top"}: ${keysOf(best.branch)})`,
  );
}
