import { isStrictResult, openAiDialect } from "../dialects/openai.js";
import { openAiNonStrictDialect } from "../dialects/openai-nonstrict.js";
import type { OutputFormat, ToolDefinition } from "../model/model.js";
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
  return openAiSchema(tool.parameters, strict);
}

/** {@link openAiToolSchema} for any object schema: a tool's parameters, a typed answer's format. */
function openAiSchema(schema: JsonSchema, strict: boolean): OpenAiToolSchema {
  if (!strict) return { parameters: openAiNonStrictDialect.toDialect(schema).schema, strict: false };
  const result = openAiDialect.toDialect(schema);
  return { parameters: result.schema, strict: isStrictResult(result) };
}

/**
 * A typed answer's format as both OpenAI APIs take it (Chat's `response_format.json_schema`,
 * Responses' `text.format` less its `type`): the same dialect as tools, strict where the
 * schema fits strict mode (the nulls strict mode adds for optional keys are dropped again
 * when the answer is read), `strict` left out where `strict` is false (local servers).
 */
export function openAiJsonSchema(format: OutputFormat, strict: boolean): Record<string, unknown> {
  const { parameters, strict: fits } = openAiSchema(format.schema, strict);
  return {
    name: format.name,
    ...(format.description ? { description: format.description } : {}),
    schema: parameters,
    ...(strict ? { strict: fits } : {}),
  };
}

/** Tool results and arguments travel as strings on OpenAI-style wires. */
export function argumentsText(args: string | Readonly<Record<string, unknown>> | null): string {
  if (args === null) return "{}";
  return typeof args === "string" ? args : JSON.stringify(args);
}
