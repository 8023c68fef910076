import type { StandardJSONSchemaV1, StandardSchemaV1 } from "@standard-schema/spec";
import type { ValidationIssue } from "../errors.js";
import { ArgumentReadError, cloneArguments } from "../repair/clone.js";
import type { Repair } from "../repair/repair.js";
import type { JsonSchema } from "../tools/spec.js";
import { readIssue } from "../validation/arguments.js";
import { checkValue, type ValueTarget } from "../validation/check-value.js";
import { valueFeedback } from "../validation/feedback.js";
import { generatedCheckOf } from "../validation/generated.js";
import { describe } from "../validation/schema-nav.js";
import { setSchemaInternals } from "./internals.js";
import { jsonSchemaFor } from "./json-schema.js";

const NO_REPAIRS: readonly Repair[] = Object.freeze([]);

/** A value of type `T` as JSON carries it: each `Date` as its ISO 8601 string. */
export type JsonOf<T> = T extends Date
  ? string
  : T extends readonly (infer Item)[]
    ? JsonOf<Item>[]
    : T extends object
      ? { [K in keyof T]: JsonOf<T[K]> }
      : T;

/** The verdict of {@link Schema.validate}: the typed value, or the problems and the one message that lists them. */
export type SchemaCheck<T> =
  | { readonly ok: true; readonly value: T; readonly repairs: readonly Repair[] }
  | {
      readonly ok: false;
      readonly issues: readonly ValidationIssue[];
      /** Every issue on its own line, the form a model is told. */
      readonly message: string;
    };

/** Standard Schema V1 with the Standard JSON Schema V1 converter: what other runtimes take. */
export type StandardProps<Output, Input> = StandardSchemaV1.Props<Input, Output> &
  StandardJSONSchemaV1.Props<Input, Output>;

/**
 * A schema toolwright derived from a TypeScript type (a `schema<T>()`, a tool's arguments or
 * result). It validates with the compiler's generated check and toolwright's repairs and
 * messages, and it speaks Standard Schema V1 and Standard JSON Schema V1 (`~standard`), so
 * the AI SDK, the OpenAI Agents SDK and any other Standard Schema consumer take it as is.
 *
 * @example
 * ```ts
 * const answer = schema<Answer>();
 * answer.validate({ city: "Paris", celsius: "18" }); // { ok: true, value: { city: "Paris", celsius: 18 }, repairs: [...] }
 * answer["~standard"].jsonSchema.input({ target: "draft-07" }); // { $schema: "http://json-schema.org/draft-07/schema#", ... }
 * ```
 */
export interface Schema<Output, Input = JsonOf<Output>> extends StandardSchemaV1<Input, Output> {
  readonly "~standard": StandardProps<Output, Input>;
  /** What providers call it (`json_schema.name`): `^[a-zA-Z0-9_-]{1,64}$`. */
  readonly name: string;
  /** The type's TSDoc summary, when it has one. */
  readonly description: string | undefined;
  /** The canonical JSON Schema (2020-12 keywords, `$defs` at the root), as the compiler wrote it. */
  readonly jsonSchema: JsonSchema;
  /**
   * Checks a value against the schema, repairing what is safe to repair (`"5"` where a
   * number is wanted, a JSON-encoded object, a `null` at an optional key) and turning
   * date-time strings into `Date`s where the type says `Date`. The value is not changed: the
   * result is a copy.
   */
  validate(value: unknown): SchemaCheck<Output>;
}

/**
 * A JSON Pointer as path keys, unescaped: an index is a number unless the value at that place
 * is an object holding it as a key (what was checked is the value as JSON writes it, so a
 * `Set` there was an array).
 */
function segmentsOf(pointer: string, value: unknown): PropertyKey[] {
  const out: PropertyKey[] = [];
  let current = value;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    const record = typeof current === "object" && current !== null && !Array.isArray(current);
    const keyed = record && Object.hasOwn(current as object, key);
    out.push(/^(0|[1-9]\d*)$/.test(key) && !keyed ? Number(key) : key);
    current = typeof current === "object" && current !== null ? (current as Record<string, unknown>)[key] : undefined;
  }
  return out;
}

/** What a {@link Schema} is made of. */
export interface SchemaParts<Output> {
  readonly name: string;
  readonly description?: string | undefined;
  readonly jsonSchema: JsonSchema;
  readonly validate: (value: unknown) => SchemaCheck<Output>;
  /** The schema and generated check `validate` runs, for the runtime's own readers of a value it holds. */
  readonly target?: ValueTarget;
}

/**
 * A {@link Schema} from its parts: `~standard.validate` reports each issue with toolwright's
 * message and its path as keys (array indexes as numbers); `~standard.jsonSchema` gives the
 * schema for `draft-2020-12`, `draft-07` and `openapi-3.0`, and throws for other targets.
 * The value JSON carries is the same on both sides, so `input` and `output` agree.
 */
export function makeSchema<Output>(parts: SchemaParts<Output>): Schema<Output> {
  const { name, jsonSchema, validate } = parts;
  const convert = (options: StandardJSONSchemaV1.Options) => jsonSchemaFor(jsonSchema, options.target, name);
  const standard: StandardProps<Output, JsonOf<Output>> = {
    version: 1,
    vendor: "toolwright",
    validate(value) {
      const check = validate(value);
      if (check.ok) return { value: check.value };
      return { issues: check.issues.map((issue) => ({ message: issue.message, path: segmentsOf(issue.path, value) })) };
    },
    jsonSchema: { input: convert, output: convert },
  };
  const made: Schema<Output> = { "~standard": standard, name, description: parts.description, jsonSchema, validate };
  const { target } = parts;
  if (target) {
    setSchemaInternals(made, {
      schema: target.schema,
      validator: target.validator,
      checkAt: (value, base) => checkValue(target, value, { base }),
    });
  }
  return made;
}

/** A failed {@link SchemaCheck}: the issues, and the message that lists them. */
export function failedCheck(
  name: string,
  schema: JsonSchema,
  issues: readonly ValidationIssue[],
  complete = true,
): SchemaCheck<never> {
  const message = valueFeedback(
    `The value does not match the schema "${name}":`,
    issues,
    `Expected ${describe(schema, schema)}.`,
    complete,
  );
  return { ok: false, issues, message };
}

/**
 * The `validate` of a schema: where the compiler wrote a reader, its frozen copy of a value
 * that fits, made and checked in one pass (as valid tool arguments are read); else a
 * caller's value is read once into a private copy (a `Date` as its ISO string, getters run
 * once, nothing of the caller's frozen or changed), then checked and repaired by
 * {@link checkValue}.
 */
export function valueValidator<Output>(name: string, target: ValueTarget): (value: unknown) => SchemaCheck<Output> {
  return (value) => {
    const generated = generatedCheckOf(target.validator, target.schema);
    if (generated?.read !== undefined) {
      let read: object | false = false;
      try {
        read = generated.read(value);
      } catch {
        // A getter or proxy trap threw: the copy below reads the value again and reports it.
      }
      // A schema with dates still has them revived, from the reader's copy.
      if (read !== false && !generated.dates) return { ok: true, value: read as Output, repairs: NO_REPAIRS };
      if (read !== false) return checked(name, target, read);
    }
    let copy: unknown;
    try {
      copy = cloneArguments(value, true);
    } catch (error) {
      if (!(error instanceof ArgumentReadError)) throw error;
      return failedCheck(name, target.schema, [readIssue(error)]);
    }
    return checked(name, target, copy);
  };
}

/** {@link checkValue} of a private copy, as a {@link SchemaCheck}. */
function checked<Output>(name: string, target: ValueTarget, copy: unknown): SchemaCheck<Output> {
  const check = checkValue(target, copy);
  if (!check.ok) return failedCheck(name, target.schema, check.issues, check.complete);
  return check as SchemaCheck<Output>;
}
