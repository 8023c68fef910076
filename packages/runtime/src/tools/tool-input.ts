import { ToolDefinitionError } from "../errors.js";
import { checkParameters } from "./define-tool.js";
import { functionTool } from "./function-tool.js";
import { lookupGeneratedSpec } from "./generated-specs.js";
import { missingSpecError } from "./missing-spec.js";
import { isRejectedSpec } from "./rejected-spec.js";
import { type CompiledFunction, isToolSpec } from "./spec.js";
import { isStandardSchema, jsonSchemaOf } from "./standard-schema.js";
import { checkToolName } from "./tool-name.js";
import type { Tool, ToolInput } from "./tool-types.js";

/**
 * Normalises any object following the `Tool` protocol (name, description, parameters,
 * execute): checks each member, fills `flags` when absent, turns a Standard Schema
 * `parameters` into JSON Schema, and keeps `execute` bound to the object. A tool that is
 * already complete is returned as it is.
 *
 * @example
 * ```ts
 * const clock = asTool({ name: "now", description: "The time.", parameters: { type: "object" }, execute: () => new Date() });
 * ```
 */
export function asTool(value: unknown): Tool {
  if (typeof value !== "object" || value === null) {
    throw new ToolDefinitionError(
      `expected a tool (an object with name, description, parameters and execute), got ${typeof value}.`,
      "<unnamed>",
    );
  }
  const candidate = value as Partial<Tool> & { parameters?: unknown };
  const name = checkToolName(candidate.name);
  if (typeof candidate.description !== "string") {
    throw new ToolDefinitionError(
      `tool "${name}" has no description: a protocol tool needs a string description.`,
      name,
    );
  }
  if (typeof candidate.execute !== "function") {
    throw new ToolDefinitionError(`tool "${name}" has no execute(args, ctx) function.`, name);
  }
  const standard = isStandardSchema(candidate.parameters) ? candidate.parameters : undefined;
  const parameters = checkParameters(name, standard ? jsonSchemaOf(standard, name) : candidate.parameters);
  if (!standard && typeof candidate.flags === "object" && candidate.flags !== null) return candidate as Tool;
  const execute = candidate.execute;
  return {
    ...candidate,
    name,
    description: candidate.description,
    parameters,
    flags: candidate.flags ?? {},
    execute: (args, ctx) => execute.call(value, args, ctx),
  };
}

function isCompiledFunction(value: unknown): value is CompiledFunction {
  // A tool made by tool() also has fn and spec; only a bare { fn, spec } lacks execute.
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Partial<Tool>).execute !== "function" &&
    typeof (value as CompiledFunction).fn === "function" &&
    isToolSpec((value as CompiledFunction).spec)
  );
}

/**
 * Turns one entry of a tool list into a tool: a compiled bare function (`{ fn, spec }`,
 * written by the compiler), a tool, or a protocol object. A bare function the compiler
 * did not see throws the missing-spec error.
 */
export function toTool(input: ToolInput | CompiledFunction): Tool {
  if (typeof input === "function") {
    const generated = lookupGeneratedSpec(input.name, undefined);
    if (!generated) throw missingSpecError(input.name || "<anonymous>");
    return functionTool(input, undefined, generated);
  }
  if (isCompiledFunction(input)) return functionTool(input.fn, undefined, input.spec);
  // `{ fn, spec }` written for a list element whose derivation the build rejected.
  const rejected = (input as { spec?: unknown }).spec;
  if (isRejectedSpec(rejected)) throw missingSpecError((input as { fn?: { name?: string } }).fn?.name ?? "", rejected);
  return asTool(input);
}
