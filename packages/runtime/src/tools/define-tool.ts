import { ToolDefinitionError } from "../errors.js";
import type { ToolContext } from "../invoke/context.js";
import { deepFreeze } from "../repair/clone.js";
import { policyOf, withInvoke } from "./function-tool.js";
import type { JsonSchema, ToolFlags } from "./spec.js";
import { isStandardSchema, jsonSchemaOf, type StandardSchema, standardValidate } from "./standard-schema.js";
import { checkToolName } from "./tool-name.js";
import type { InvokableTool, Tool, ToolArgs, ToolOptions } from "./tool-types.js";

/** The arguments `execute` receives: the schema's output type for a Standard Schema, else a plain record. */
export type DescriptorArgs<S> = S extends StandardSchema<infer Output> ? Output : ToolArgs;

/** A hand-written tool for `tool({ ... })`: everything the compiler would derive, given by hand. */
export interface ToolDescriptor<S extends JsonSchema | StandardSchema = JsonSchema, Deps = unknown>
  extends ToolOptions<Deps> {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments object (2020-12), or a Standard Schema that can produce one (zod 4, ...). */
  readonly parameters: S;
  /** JSON Schema the return value must match. */
  readonly outputSchema?: JsonSchema;
  execute(args: DescriptorArgs<S>, ctx: ToolContext<Deps>): unknown;
}

/** Picks the behaviour flags out of a tool's options. */
export function flagsOf(options: ToolOptions<never>): ToolFlags {
  const flags: { -readonly [K in keyof ToolFlags]: ToolFlags[K] } = {};
  for (const key of ["readOnly", "idempotent", "destructive", "openWorld"] as const) {
    if (options[key] !== undefined) flags[key] = options[key];
  }
  if (options.needsApproval === true) flags.needsApproval = true;
  return flags;
}

/** Checks that `schema` describes an arguments object, which every provider requires. */
export function checkParameters(toolName: string, schema: unknown): JsonSchema {
  if (typeof schema === "object" && schema !== null && (schema as JsonSchema).type === "object")
    return schema as JsonSchema;
  throw new ToolDefinitionError(
    `tool "${toolName}": parameters must be a JSON Schema with type "object" (or a Standard Schema of an object), got ${JSON.stringify(schema)?.slice(0, 80)}. ` +
      `Wrap single values in an object, e.g. { type: "object", properties: { value: ... }, required: ["value"] }.`,
    toolName,
  );
}

/** Builds the tool of `tool({ name, description, parameters, execute })`. */
export function defineTool(descriptor: ToolDescriptor<JsonSchema | StandardSchema, unknown>): InvokableTool {
  const name = checkToolName(descriptor.name);
  if (typeof descriptor.description !== "string") {
    throw new ToolDefinitionError(
      `tool "${name}" has no description: give it one the model can read to decide when to call it.`,
      name,
    );
  }
  const given = descriptor.parameters;
  const standard = isStandardSchema(given) ? given : undefined;
  const parameters = checkParameters(name, standard ? jsonSchemaOf(standard, name) : given);
  const run = descriptor.execute as (args: unknown, ctx: ToolContext<never>) => unknown;
  const execute: Tool["execute"] = standard
    ? async (args, ctx) =>
        run.call(descriptor, deepFreeze(await standardValidate(standard, parameters, name, args)), ctx)
    : (args, ctx) => run.call(descriptor, args, ctx);
  return withInvoke({
    name,
    description: descriptor.description,
    parameters,
    ...(descriptor.outputSchema ? { outputSchema: descriptor.outputSchema } : {}),
    flags: flagsOf(descriptor as ToolOptions<never>),
    needsApproval: descriptor.needsApproval as Tool["needsApproval"],
    timeoutMs: descriptor.timeoutMs,
    retries: descriptor.retries,
    maxResultChars: descriptor.maxResultChars,
    ...policyOf(descriptor.capabilities, descriptor.egress),
    execute,
  });
}
