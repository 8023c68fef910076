import { serializeResult } from "../invoke/result.js";
import type { ToolSpec } from "../tools/spec.js";
import type { AnyFunction, FunctionTool, Tool, ToolArgs } from "../tools/tool-types.js";
import { validateArguments } from "../validation/arguments.js";
import { makeSchema, type Schema, valueValidator } from "./schema.js";

/** A tool's arguments and result as {@link Schema}s: Standard Schema V1 and Standard JSON Schema V1. */
export interface ToolSchemas<Result = unknown> {
  /** The arguments object: validated, repaired, frozen and dated exactly as the agent's loop does it. */
  readonly input: Schema<ToolArgs, Readonly<Record<string, unknown>>>;
  /** The return value, when the tool declares a checkable one (`outputSchema`). */
  readonly output: Schema<Result> | undefined;
}

const made = new WeakMap<Tool, ToolSchemas>();

function inputSchema(tool: Tool): ToolSchemas["input"] {
  const schema = makeSchema<ToolArgs>({
    name: tool.name,
    description: tool.description,
    jsonSchema: tool.parameters,
    validate(value) {
      const check = validateArguments(tool, value);
      if (check.ok) return { ok: true, value: check.args, repairs: check.repairs };
      return { ok: false, issues: check.error.issues, message: check.error.message };
    },
  });
  return schema as ToolSchemas["input"];
}

function outputSchema(tool: Tool): Schema<unknown> | undefined {
  const { outputSchema: json } = tool;
  if (json === undefined) return undefined;
  const spec = (tool as { readonly spec?: ToolSpec }).spec;
  const name = `${tool.name.slice(0, 57)}_output`;
  const check = valueValidator<unknown>(name, {
    schema: json,
    // The compiler's check fits the schema it was generated for, not one put in its place since.
    validator: spec?.outputSchema === json ? spec.outputValidator : undefined,
  });
  return makeSchema<unknown>({
    name,
    description: `What the tool "${tool.name}" returns.`,
    jsonSchema: json,
    validate: (value) => check(written(value)),
  });
}

/** A result as the model reads it, the way the loop checks one: a Map as an object, a Set as an array. */
function written(value: unknown): unknown {
  if (typeof value === "string" || value === undefined) return value;
  const text = serializeResult(value);
  try {
    return JSON.parse(text);
  } catch {
    return text; // "[unserializable result: ...]"
  }
}

/**
 * The Standard Schemas of a tool's arguments (`input`) and of its result (`output`, when it
 * has an `outputSchema`), for runtimes that take tools as Standard Schemas (the AI SDK's
 * `inputSchema`, the OpenAI Agents SDK's `parameters`). `input` validates with the same
 * generated check, repairs and feedback as the agent's loop; both give their JSON Schema for
 * `draft-2020-12`, `draft-07` and `openapi-3.0`. Made once per tool.
 *
 * @example
 * ```ts
 * const { input } = toolSchemas(weather);
 * await input["~standard"].validate({ city: "Paris", days: "3" }); // { value: { city: "Paris", days: 3 } }
 * input["~standard"].jsonSchema.input({ target: "draft-07" });
 * ```
 */
export function toolSchemas<F extends AnyFunction>(tool: FunctionTool<F>): ToolSchemas<Awaited<ReturnType<F>>>;
export function toolSchemas(tool: Tool): ToolSchemas;
export function toolSchemas(tool: Tool): ToolSchemas {
  let schemas = made.get(tool);
  if (!schemas) {
    schemas = { input: inputSchema(tool), output: outputSchema(tool) };
    made.set(tool, schemas);
  }
  return schemas;
}
