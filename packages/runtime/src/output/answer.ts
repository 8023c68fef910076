import type { ValidationIssue } from "../errors.js";
import type { OutputFormat } from "../model/model.js";
import { parseArguments } from "../repair/parse.js";
import type { Repair } from "../repair/repair.js";
import { schemaInternalsOf } from "../standard/internals.js";
import type { Schema } from "../standard/schema.js";
import type { JsonSchema } from "../tools/spec.js";
import { valueFeedback } from "../validation/feedback.js";
import { childPath, renderValue } from "../validation/render.js";

/** The key an answer that is not an object travels under: `{ "answer": ... }`. */
export const ANSWER_KEY = "answer";

/** A typed answer as the wire carries it: the format sent, and whether the answer sits in `{ answer }`. */
export interface AnswerShape {
  readonly schema: Schema<unknown>;
  readonly format: OutputFormat;
  readonly wrapped: boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** True for a root every structured output API takes: one object, no union or reference around it. */
function isPlainObject(schema: JsonSchema): boolean {
  return schema.type === "object" && !["anyOf", "oneOf", "allOf", "$ref"].some((key) => key in schema);
}

/**
 * The wire form of a typed answer: an object type as it is; any other type (a string, a
 * list, a union, a recursive type) as the one required key `answer` of an object, its
 * `$defs` lifted to the new root, since every structured output API wants an object there.
 */
export function answerShape(schema: Schema<unknown>): AnswerShape {
  const json = schema.jsonSchema;
  const wrapped = !isPlainObject(json);
  const { $defs, ...inner } = json;
  const wire: JsonSchema = wrapped
    ? {
        type: "object",
        properties: { [ANSWER_KEY]: inner },
        required: [ANSWER_KEY],
        additionalProperties: false,
        ...($defs === undefined ? {} : { $defs }),
      }
    : json;
  const { name, description } = schema;
  return { schema, wrapped, format: { name, ...(description ? { description } : {}), schema: wire } };
}

/** The verdict on one answer: its value, typed by the schema, or its problems. */
export type AnswerCheck =
  | { readonly ok: true; readonly value: unknown; readonly repairs: readonly Repair[] }
  | { readonly ok: false; readonly issues: readonly ValidationIssue[] };

const BRACKETED = /[[{][\s\S]*[\]}]/;

/**
 * The JSON value of an answer's text: strict JSON; else what the arguments' reader repairs
 * (a code fence, trailing commas, a cut-off end); else the one bracketed span of text around
 * which the model wrote prose (servers that ignore the format do).
 */
function parseText(text: string): { value: unknown; repairs: Repair[] } | ValidationIssue {
  try {
    return { value: JSON.parse(text), repairs: [] };
  } catch {
    // Not strict JSON: repaired below.
  }
  const repaired = parseArguments(text);
  if (repaired.ok && !repaired.empty) return { value: repaired.value, repairs: [...repaired.repairs] };
  const span = BRACKETED.exec(text)?.[0];
  if (span !== undefined && span.length < text.trim().length) {
    try {
      return {
        value: JSON.parse(span),
        repairs: [{ kind: "json_repaired", path: "", detail: "took the JSON out of the text around it" }],
      };
    } catch {
      // Prose with brackets in it: not JSON either.
    }
  }
  return {
    code: "invalid_json",
    path: "",
    message: `the answer is not JSON: got ${renderValue(text)}; reply with the JSON value alone`,
  };
}

/** What the model wrote, taken out of its `{ answer }` wrapper. */
interface Unwrapped {
  readonly inner: unknown;
  /** Where the answer sat in what the model wrote: `/answer`, or `""` for a bare answer. */
  readonly base: string;
  readonly issues: readonly ValidationIssue[];
}

/** The answer inside its `{ answer }` wrapper, or (taken as a repair) a bare answer the model sent without it. */
function unwrap(value: unknown, repairs: Repair[]): Unwrapped {
  if (!isRecord(value) || !Object.hasOwn(value, ANSWER_KEY)) {
    repairs.push({
      kind: "json_repaired",
      path: "",
      detail: `took the answer without its { "${ANSWER_KEY}" } wrapper`,
    });
    return { inner: value, base: "", issues: [] };
  }
  const issues = Object.keys(value)
    .filter((key) => key !== ANSWER_KEY)
    .map((key) => ({
      code: "unexpected_key",
      path: childPath("", key),
      message: `unexpected key ${JSON.stringify(key)}: the object holds one key, "${ANSWER_KEY}"`,
    }));
  return { inner: value[ANSWER_KEY], base: `/${ANSWER_KEY}`, issues };
}

/** The schema's own check at `base`; a schema toolwright did not make validates itself. */
function check(schema: Schema<unknown>, value: unknown, base: string): AnswerCheck {
  const checked = schemaInternalsOf(schema)?.checkAt(value, base) ?? schema.validate(value);
  return checked.ok
    ? { ok: true, value: checked.value, repairs: checked.repairs }
    : { ok: false, issues: checked.issues };
}

/**
 * Reads a model's final answer (the message text under `native`, a text reply the model gave
 * instead of calling the final-answer tool) against the answer's schema: parsed leniently,
 * unwrapped, then checked, repaired and dated as tool arguments are. Problems carry the paths
 * of what the model wrote (`/answer/0/price` inside the wrapper).
 */
export function readAnswer(shape: AnswerShape, text: string): AnswerCheck {
  if (text.trim() === "") {
    return { ok: false, issues: [{ code: "missing_answer", path: "", message: "the reply held no answer" }] };
  }
  const parsed = parseText(text);
  if ("code" in parsed) return { ok: false, issues: [parsed] };
  const repairs = parsed.repairs;
  const { inner, base, issues }: Unwrapped = shape.wrapped
    ? unwrap(parsed.value, repairs)
    : { inner: parsed.value, base: "", issues: [] };
  const checked = check(shape.schema, inner, base);
  if (!checked.ok || issues.length > 0)
    return { ok: false, issues: [...issues, ...(checked.ok ? [] : checked.issues)] };
  return { ok: true, value: checked.value, repairs: [...repairs, ...checked.repairs] };
}

/** The message the model gets for an answer that does not fit: each problem, then what to send. */
export function answerFeedback(shape: AnswerShape, issues: readonly ValidationIssue[]): string {
  const form = shape.wrapped ? ` as the object {"${ANSWER_KEY}": ...}` : "";
  return valueFeedback(
    `Your final answer does not match the required JSON Schema "${shape.format.name}":`,
    issues,
    `Reply with the corrected answer${form}: JSON only, nothing around it.`,
  );
}
