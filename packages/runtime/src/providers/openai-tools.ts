import { isStrictResult, openAiDialect } from "../dialects/openai.js";
import { openAiNonStrictDialect } from "../dialects/openai-nonstrict.js";
import type { ToolDefinition } from "../model/model.js";
import type { JsonSchema } from "../tools/spec.js";

/** A tool's schema as an OpenAI-style API gets it. */
export interface OpenAiToolSchema {
  readonly parameters: JsonSchema;
  readonly strict: boolean;
}

/**
 * With `strict`, the `openai` dialect: strict mode when the schema fits it (optional keys
 * become nullable; the runtime drops those nulls before validation), else the plain
 * schema with `strict: false`, so one Record-typed tool does not break the whole request.
 * Without, the `openai-nonstrict` dialect.
 */
export function openAiToolSchema(tool: ToolDefinition, strict: boolean): OpenAiToolSchema {
  if (!strict) return { parameters: openAiNonStrictDialect.toDialect(tool.parameters).schema, strict: false };
  const result = openAiDialect.toDialect(tool.parameters);
  return { parameters: result.schema, strict: isStrictResult(result) };
}

/** Tool results and arguments travel as strings on OpenAI-style wires. */
export function argumentsText(args: string | Readonly<Record<string, unknown>> | null): string {
  if (args === null) return "{}";
  return typeof args === "string" ? args : JSON.stringify(args);
}
