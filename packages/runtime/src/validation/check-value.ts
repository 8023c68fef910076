import type { ValidationIssue } from "../errors.js";
import { coerce } from "../repair/coerce.js";
import type { Repair } from "../repair/repair.js";
import type { GeneratedValidator, JsonSchema } from "../tools/spec.js";
import { checkerFor, type ErrorObject } from "./compile.js";
import { reviveDates } from "./dates.js";
import { generatedCheckOf } from "./generated.js";
import { collectErrors } from "./generated-helpers.js";
import { type IssueContext, issuesFromAjv } from "./issues.js";

/** What a value is checked against: a JSON Schema and, when the compiler wrote one, its generated check. */
export interface ValueTarget {
  readonly schema: JsonSchema;
  readonly validator?: GeneratedValidator | undefined;
}

/**
 * The verdict on one value: the value as its type has it (repaired where the schema made
 * the fix unambiguous, `Date` members revived), or its problems as data.
 */
export type ValueCheck<T = unknown> =
  | { readonly ok: true; readonly value: T; readonly repairs: readonly Repair[] }
  | { readonly ok: false; readonly issues: readonly ValidationIssue[]; readonly complete: boolean };

/** The errors of `value` against `target`: the generated check's collectors, else Ajv's. */
function errorsOf(target: ValueTarget, value: unknown): readonly ErrorObject[] | undefined {
  const check = generatedCheckOf(target.validator, target.schema);
  if (check?.(value)) return undefined;
  if (check?.issues) return collectErrors(check.issues, value, target.schema);
  return checkerFor(target.schema)(value);
}

function accepted(value: unknown, schema: JsonSchema, repairs: readonly Repair[]): ValueCheck {
  const dated = reviveDates(value, schema);
  if (dated.issues.length > 0) return { ok: false, issues: dated.issues, complete: true };
  return { ok: true, value: dated.value, repairs };
}

/**
 * Checks a JSON value of any kind (an object, an array, a string ...) against a schema, with
 * the repairs and feedback arguments get: the generated check first, then the safe repairs
 * (`"5"` read as 5, a JSON string decoded where an object is wanted, `null` dropped at an
 * optional key, as strict dialects send it), then the problems of what is still wrong,
 * each with its path (prefixed with `context.base`). The value must be the caller's own,
 * plain JSON data (parsed text, or a copy): it is read, never changed, and the containers
 * holding a repair or a `Date` are fresh.
 *
 * @example
 * ```ts
 * checkValue({ schema: { type: "array", items: { type: "number" } } }, ["1", 2]);
 * // { ok: true, value: [1, 2], repairs: [{ kind: "string_to_number", path: "/0" }] }
 * ```
 */
export function checkValue(target: ValueTarget, value: unknown, context: IssueContext = {}): ValueCheck {
  const { schema } = target;
  const errors = errorsOf(target, value);
  if (!errors?.length) return accepted(value, schema, []);
  const repairs: Repair[] = [];
  const repaired = coerce(value, schema, schema, "", repairs);
  const still = repairs.length > 0 ? errorsOf(target, repaired) : errors;
  if (!still?.length) return accepted(repaired, schema, repairs);
  const { issues, complete } = issuesFromAjv(still, schema, context);
  return { ok: false, issues, complete };
}
