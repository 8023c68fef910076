/**
 * The contract between the compiler and the runtime: what the transformer writes
 * next to every tool site, and what `tool()` reads back at run time.
 *
 * Bump {@link SPEC_VERSION} on any change a runtime cannot read in the old form.
 */

import type { Capability } from "../policy/capabilities.js";

/** A JSON Schema object (2020-12 keywords, `$defs` for shared and recursive types). */
export interface JsonSchema {
  readonly [keyword: string]: unknown;
}

/**
 * The keyword the compiler writes on the schema of a `Date` (`{ type: "string", format:
 * "date-time", "x-toolwright-date": true }`): the runtime hands the function a `Date`
 * there. Validators ignore it, and every dialect removes it before a schema is sent.
 */
export const DATE_KEYWORD = "x-toolwright-date";

/** Behaviour flags of a tool, from TSDoc tags (`@readOnly`, ...) or `tool()` options. */
export interface ToolFlags {
  /** The tool only reads: safe to retry, never needs approval for side effects. */
  readonly readOnly?: boolean;
  /** Calling it twice with the same arguments has the same effect as once. */
  readonly idempotent?: boolean;
  /** It may destroy or overwrite something; never retried by the engine. */
  readonly destructive?: boolean;
  /** It reaches outside the process (network, other systems). */
  readonly openWorld?: boolean;
  /** Every call waits for a person's approval (a predicate can be given in options instead). */
  readonly needsApproval?: boolean;
}

/**
 * How one parameter of the function is filled at call time.
 * - `arg`: the property `name` of the model's arguments object;
 * - `object`: the whole arguments object (a single destructured or object-typed parameter);
 * - `context`: the {@link ToolContext}, never shown to the model; `deps` is true when its
 *   type names deps (`ToolContext<{ db: Db }>`), which the caller must then supply.
 */
export type ParamSlot =
  | { readonly kind: "arg"; readonly name: string }
  | { readonly kind: "object" }
  | { readonly kind: "context"; readonly deps?: true };

/** Where a tool was defined, for error messages. */
export interface SourceLocation {
  readonly file: string;
  readonly line: number;
}

/**
 * What the runtime hands a generated validator: the few checks that would be long to inline.
 * Formats are the ones the compiler generates checks for (`date-time`, `date`, `time`,
 * `email`, `uuid`).
 */
export interface ValidatorHelpers {
  /** The length of a string in code points, as `minLength` and `maxLength` count. */
  len(text: string): number;
  /** JSON equality, for `enum` and `const` values that are objects or arrays. */
  equal(a: unknown, b: unknown): boolean;
  /** True when no two items are JSON-equal (`uniqueItems`). */
  unique(items: readonly unknown[]): boolean;
  /** The check of a string format; throws for a format the runtime does not know. */
  format(name: string): (text: string) => boolean;
  /**
   * Reports the error Ajv would report for keyword `ISSUE_KEYWORDS[code]` at `path` for the
   * value `value` of `schema` (see {@link IssueCollector}); `extra` is the key of
   * `required` and `additionalProperties`, the branches' collectors of `anyOf`.
   */
  issue(code: number, path: string, schema: JsonSchema, value: unknown, extra?: unknown): void;
  /** {@link ValidatorHelpers.issue} for the value of property `key` of an object at `path` of `schema`. */
  child(code: number, path: string, schema: JsonSchema, key: string, value: unknown): void;
  /** `path` with the key `key` appended, escaped as JSON Pointer escapes it. */
  path(path: string, key: string): string;
  /**
   * For a schema of the one type `object`: reports its type error and returns false when
   * `value` is no object; otherwise reports the object's key-level errors Ajv finds before
   * `properties` (`maxProperties`, `minProperties`, `required`, and `additionalProperties:
   * false` when there are no `patternProperties`) and returns true.
   */
  object(value: unknown, path: string, schema: JsonSchema): boolean;
}

/**
 * The keywords a generated collector reports, by the code it passes to
 * {@link ValidatorHelpers.issue}. Append only: compiled specs carry the codes.
 */
export const ISSUE_KEYWORDS = [
  "type",
  "required",
  "additionalProperties",
  "enum",
  "const",
  "anyOf",
  "maximum",
  "minimum",
  "exclusiveMaximum",
  "exclusiveMinimum",
  "multipleOf",
  "maxLength",
  "minLength",
  "pattern",
  "format",
  "maxItems",
  "minItems",
  "items",
  "maxProperties",
  "minProperties",
] as const;

/**
 * What a generated check may carry for a rejected value: reports (through the helpers'
 * `issue`) what Ajv (`allErrors`, `verbose`) reports for `value` at `path` against
 * `schema`, in Ajv's order.
 */
export type IssueCollector = (value: unknown, path: string, schema: JsonSchema) => void;

/**
 * A validator the compiler generated for one schema: called once with the runtime's
 * helpers and the schema, it returns the check (true when a value fits the schema), which
 * may carry `issues`, the {@link IssueCollector} of that schema (for the feedback), and
 * `read`: the check and a deep-frozen copy in one pass, returning the copy, or false when
 * the value does not fit or is not plain data (own enumerable keys, no `undefined` values,
 * a plain prototype) that the runtime's own copy would give the same way.
 */
export type GeneratedValidator = (
  helpers: ValidatorHelpers,
  schema: JsonSchema,
) => ((value: unknown) => boolean) & {
  readonly issues?: IssueCollector;
  readonly read?: (value: unknown) => object | false;
};

/** The current format of {@link ToolSpec}. */
export const SPEC_VERSION = 1;

/** The spec the compiler derives for one tool site. */
export interface ToolSpec {
  /** Marker and format version; lets the runtime tell a spec from user options. */
  readonly $toolwright: typeof SPEC_VERSION;
  readonly name: string;
  readonly description: string;
  /** Canonical JSON Schema of the arguments object: `type: "object"`, closed unless an index signature allows more. */
  readonly parameters: JsonSchema;
  /** One slot per function parameter, in declaration order. */
  readonly slots: readonly ParamSlot[];
  /** JSON Schema of the return value, when the return type can be checked. */
  readonly outputSchema?: JsonSchema;
  readonly flags: ToolFlags;
  /** From `@capability` (TSDoc) or the `capabilities` option: what the tool touches, for the trifecta policy. */
  readonly capabilities?: readonly Capability[];
  /** From `@egress <param>` or the `egress` option: the argument holding the URL a call reaches. */
  readonly egress?: string;
  readonly source: SourceLocation;
  /** Generated check of `parameters` (absent when the schema is outside the generator's subset). */
  readonly validator?: GeneratedValidator;
  /** Generated check of `outputSchema`, under the same rule. */
  readonly outputValidator?: GeneratedValidator;
}

/** True when `value` is a spec written by the toolwright compiler. */
export function isToolSpec(value: unknown): value is ToolSpec {
  return (
    typeof value === "object" && value !== null && (value as { $toolwright?: unknown }).$toolwright === SPEC_VERSION
  );
}

declare const compiledSpecBrand: unique symbol;

/**
 * The type of the trailing parameter that the compiler fills with a {@link ToolSpec}.
 * The compiler finds tool sites by this brand on the resolved signature, never by a
 * function's name. Never pass it by hand.
 */
export type CompiledSpec = ToolSpec & { readonly [compiledSpecBrand]?: never };

/**
 * What the compiler writes in place of a bare function in a `ToolInput[]` list
 * (e.g. `new Agent({ tools: [getWeather] })`): the function with its spec.
 */
export interface CompiledFunction {
  // biome-ignore lint/suspicious/noExplicitAny: a tool wraps functions of any signature
  readonly fn: (...args: any[]) => unknown;
  readonly spec: ToolSpec;
}
