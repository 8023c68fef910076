import type { ValidationIssue } from "../errors.js";
import type { JsonSchema } from "../spec.js";
import { declaredKeys, describe, propertySchema, requiredKeys } from "./schema-nav.js";

/** `origin (string, required), cabin (one of "economy", "first")`: what the tool accepts. */
function acceptedKeys(schema: JsonSchema): string {
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
 * The one message a model gets when its arguments are wrong: every issue on its own line,
 * then the accepted keys with their types, then what to do.
 */
export function argumentFeedback(toolName: string, issues: readonly ValidationIssue[], schema: JsonSchema): string {
  const lines = [`Invalid arguments for tool "${toolName}":`, ...issues.map((i) => `- ${i.message}`)];
  const accepted = acceptedKeys(schema);
  if (accepted) lines.push(accepted);
  lines.push(`Fix the arguments and call ${toolName} again.`);
  return lines.join("\n");
}

/** The message of a `ToolShapeError`: for the tool's author, not the model. */
export function shapeFeedback(toolName: string, issues: readonly ValidationIssue[]): string {
  return [
    `tool "${toolName}" returned a value that does not match its declared return type:`,
    ...issues.map((i) => `- ${i.message}`),
    "Fix the tool so it returns what its signature promises, or widen the return type.",
  ].join("\n");
}
