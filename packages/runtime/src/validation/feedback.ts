import type { ValidationIssue } from "../errors.js";
import { MAX_FULL_CHECK_VALUES } from "../repair/clone.js";
import type { JsonSchema } from "../tools/spec.js";
import { declaredKeys, describe, propertySchema, requiredKeys } from "./schema-nav.js";

/** More problems than this are counted, not listed: a model fixes the pattern, not each of 10,000 items. */
const MAX_LINES = 20;

const acceptedOf = new WeakMap<JsonSchema, string>();

/** {@link acceptedKeysOf}, made once per schema: it depends on nothing the model sent. */
function acceptedKeys(schema: JsonSchema): string {
  let text = acceptedOf.get(schema);
  if (text === undefined) {
    text = acceptedKeysOf(schema);
    acceptedOf.set(schema, text);
  }
  return text;
}

/** `origin (string, required), cabin (one of "economy", "first")`: what the tool accepts. */
function acceptedKeysOf(schema: JsonSchema): string {
  const required = new Set(requiredKeys(schema));
  const keys = declaredKeys(schema);
  if (keys.length === 0) return schema.additionalProperties === false ? "This tool takes no arguments: send {}." : "";
  const parts = keys.map((key) => {
    const sub = propertySchema(schema, key);
    const type = sub ? describe(sub, schema) : "any value";
    return `${key} (${type}${required.has(key) ? ", required" : ""})`;
  });
  return `Accepted keys: ${parts.join("; ")}.`;
}

/**
 * The longest feedback message, in characters. Every key and value quoted in it is cut
 * already (see `quote`); this bounds the rest (20 lines of deep paths, a long list of
 * accepted keys), so what a model sent can never make the next request large.
 */
export const MAX_FEEDBACK_CHARS = 8_000;

/** `lines` joined, cut to {@link MAX_FEEDBACK_CHARS} with a visible marker, `last` always kept. */
function capped(lines: readonly string[], last: string): string {
  // Concatenated, not joined: the engine keeps the pieces until the text is read, and a
  // caller that only passes the message on (or reads its length) never pays for copying it.
  let body = lines[0] ?? "";
  for (let i = 1; i < lines.length; i++) body += `\n${lines[i]}`;
  if (body.length + 1 + last.length <= MAX_FEEDBACK_CHARS) return `${body}\n${last}`;
  const marker = "… (feedback cut here)";
  return `${body.slice(0, MAX_FEEDBACK_CHARS - last.length - marker.length - 1)}${marker}\n${last}`;
}

/**
 * How much of the problems a list of issues covers: all of them (`"all"`), the first of
 * more than could be listed (`"capped"`), or only the first problem of arguments too
 * large to check further (`"first"`).
 */
export type Coverage = "all" | "capped" | "first";

/**
 * The one message a model gets when its arguments are wrong: every issue on its own line,
 * then the accepted keys with their types, then what to do.
 */
export function argumentFeedback(
  toolName: string,
  issues: readonly ValidationIssue[],
  schema: JsonSchema,
  coverage: Coverage = "all",
): string {
  const lines = problemLines(`Invalid arguments for tool "${toolName}":`, issues, coverage);
  const accepted = acceptedKeys(schema);
  if (accepted) lines.push(accepted);
  return capped(lines, `Fix the arguments and call ${toolName} again.`);
}

/** `heading`, then one line per issue, at most {@link MAX_LINES}, then how many more there are. */
function problemLines(heading: string, issues: readonly ValidationIssue[], coverage: Coverage): string[] {
  const lines = [heading];
  for (const issue of issues.slice(0, MAX_LINES)) lines.push(`- ${issue.message}`);
  if (coverage === "first")
    lines.push(
      `- … checking stopped at this first problem: arguments of more than ${MAX_FULL_CHECK_VALUES} values are not checked further or repaired`,
    );
  else if (coverage === "capped") lines.push("- … and more problems like these");
  else if (issues.length > MAX_LINES) lines.push(`- … and ${issues.length - MAX_LINES} more problems like these`);
  return lines;
}

/**
 * The message of a value that does not fit its schema (a typed answer, a Standard Schema's
 * `validate`): `heading`, every issue on its own line, then `advice`.
 */
export function valueFeedback(
  heading: string,
  issues: readonly ValidationIssue[],
  advice: string,
  complete = true,
): string {
  return capped(problemLines(heading, issues, complete ? "all" : "capped"), advice);
}

/** The message of a `ToolShapeError`: for the tool's author, not the model. */
export function shapeFeedback(toolName: string, issues: readonly ValidationIssue[], complete = true): string {
  return valueFeedback(
    `tool "${toolName}" returned a value that does not match its declared return type:`,
    issues,
    "Fix the tool so it returns what its signature promises, or widen the return type.",
    complete,
  );
}
