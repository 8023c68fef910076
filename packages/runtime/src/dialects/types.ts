import type { JsonSchema } from "../tools/spec.js";

/**
 * How serious a dialect note is:
 * - `error`: the target cannot take this schema (the compiler's `targets` option fails the build);
 * - `warning`: the target may reject it (the rule is not confirmed by the provider);
 * - `info`: the schema was rewritten without losing what validation checks (e.g. a keyword moved into the description).
 */
export type DialectSeverity = "error" | "warning" | "info";

/** One thing a dialect changed or could not express, as data. */
export interface DialectNote {
  readonly severity: DialectSeverity;
  /** Stable code, e.g. `keyword-moved`, `root-not-object`, `recursive-ref`. */
  readonly code: string;
  /** JSON Pointer into the canonical schema, `""` for the root. */
  readonly path: string;
  readonly message: string;
}

/** What a dialect made of a canonical schema. */
export interface DialectResult {
  readonly schema: JsonSchema;
  readonly notes: readonly DialectNote[];
}

/**
 * Names of the schema dialects toolwright speaks: `openai` is what the OpenAI providers
 * send (strict, falling back per tool), `openai-strict` and `openai-nonstrict` one mode each.
 */
export type DialectName =
  | "openai"
  | "openai-strict"
  | "openai-nonstrict"
  | "anthropic-strict"
  | "anthropic"
  | "gemini"
  | "gemini-legacy"
  | "mcp";

/** One provider's view of JSON Schema: a pure rewrite plus a check built on it. */
export interface SchemaDialect {
  readonly name: DialectName;
  /** Rewrites the canonical schema into what the target accepts, noting every change. */
  toDialect(schema: JsonSchema): DialectResult;
  /** What the target cannot take (notes of severity `error` and `warning`); empty when the schema is fine. */
  check(schema: JsonSchema): readonly DialectNote[];
}
