import type { JsonSchema } from "../tools/spec.js";
import { openAiNonStrictDialect } from "./openai-nonstrict.js";
import { openAiStrictDialect } from "./openai-strict.js";
import type { DialectNote, DialectResult, SchemaDialect } from "./types.js";

/** The code of the note saying a tool goes out with `strict: false`. */
const STRICT_FALLBACK = "strict-fallback";

/**
 * What the OpenAI providers send (`"openai"` in `targets`, `toolwright print --dialect`
 * and here alike): strict mode, and for a schema strict mode cannot take, the
 * non-strict schema with a `strict-fallback` warning per reason. Fallback is per tool,
 * so one `Record` parameter does not break the whole request; the provider then does
 * not constrain that tool's arguments (toolwright still validates them). Use
 * `"openai-strict"` to require strict mode, `"openai-nonstrict"` to never use it.
 */
export const openAiDialect: SchemaDialect = {
  name: "openai",
  toDialect(schema: JsonSchema): DialectResult {
    const strict = openAiStrictDialect.toDialect(schema);
    const refusals = strict.notes.filter((n) => n.severity === "error");
    if (refusals.length === 0) return strict;
    const plain = openAiNonStrictDialect.toDialect(schema);
    const fallbacks = refusals.map(
      (n): DialectNote => ({
        severity: "warning",
        code: STRICT_FALLBACK,
        path: n.path,
        message: `sent with strict: false, so OpenAI does not constrain this tool's arguments: ${n.message}`,
      }),
    );
    return { schema: plain.schema, notes: [...fallbacks, ...plain.notes] };
  },
  check(schema) {
    return this.toDialect(schema).notes.filter((n) => n.severity !== "info");
  },
};

/** True when the OpenAI dialect's result is a strict-mode schema (no `strict-fallback` note). */
export function isStrictResult(result: DialectResult): boolean {
  return !result.notes.some((n) => n.code === STRICT_FALLBACK);
}
