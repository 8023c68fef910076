import { openAiDialect } from "../dialects/openai.js";
import { openAiStrictDialect } from "../dialects/openai-strict.js";
import type { ToolDefinition } from "../model.js";
import type { JsonSchema } from "../spec.js";

/** A tool's schema as an OpenAI-style API gets it. */
export interface OpenAiToolSchema {
  readonly parameters: JsonSchema;
  readonly strict: boolean;
}

/**
 * Strict mode when asked for and the schema fits it (optional keys become nullable;
 * the runtime drops those nulls before validation), else the plain schema with
 * `strict: false`, so one Record-typed tool does not break the whole request.
 */
export function openAiToolSchema(tool: ToolDefinition, strict: boolean): OpenAiToolSchema {
  if (strict) {
    const { schema, notes } = openAiStrictDialect.toDialect(tool.parameters);
    if (!notes.some((n) => n.severity === "error")) return { parameters: schema, strict: true };
  }
  return { parameters: openAiDialect.toDialect(tool.parameters).schema, strict: false };
}

/** Tool results and arguments travel as strings on OpenAI-style wires. */
export function argumentsText(args: string | Readonly<Record<string, unknown>> | null): string {
  if (args === null) return "{}";
  return typeof args === "string" ? args : JSON.stringify(args);
}
