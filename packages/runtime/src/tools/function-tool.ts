import type { ToolContext, ToolContextInit } from "../invoke/context.js";
import { ignoresContext, runTool } from "../invoke/run-tool.js";
import type { Capability } from "../policy/capabilities.js";
import { thrownFrom, validateArguments } from "../validation/arguments.js";
import type { ParamSlot, ToolSpec } from "./spec.js";
import { checkToolName } from "./tool-name.js";
import type {
  AnyFunction,
  FunctionTool,
  InvokableTool,
  Tool,
  ToolArgs,
  ToolOptions,
  ToolRunResult,
} from "./tool-types.js";

/** Fills the function's positional parameters from the model's arguments object and the context. */
export function bindArguments(slots: readonly ParamSlot[], args: ToolArgs, ctx: ToolContext<never>): unknown[] {
  // Own keys only: an absent optional parameter named `toString` must arrive as undefined.
  return slots.map((slot) =>
    slot.kind === "arg"
      ? Object.hasOwn(args, slot.name)
        ? args[slot.name]
        : undefined
      : slot.kind === "object"
        ? args
        : ctx,
  );
}

/** Adds `invoke` to a tool: the same two steps the loop takes. */
export function withInvoke<T extends Tool>(base: T): T & InvokableTool {
  const made: T & InvokableTool = Object.assign(base, {
    async invoke(args: unknown, ctx?: ToolContextInit): Promise<ToolRunResult> {
      const check = validateArguments(made, args);
      if (!check.ok) throw thrownFrom(check.error, made.invoke);
      return runTool(made, check.args, ctx);
    },
  });
  return made;
}

/** Builds the tool of a compiled function; options win over the spec. */
export function functionTool<F extends AnyFunction>(
  fn: F,
  options: ToolOptions<never> | undefined,
  spec: ToolSpec,
): FunctionTool<F> {
  const { needsApproval, timeoutMs, retries, maxResultChars, name, description, capabilities, egress, ...flags } =
    options ?? {};
  const toolName = checkToolName(name ?? spec.name, spec.source);
  const made = withInvoke<Omit<FunctionTool<F>, "invoke">>({
    name: toolName,
    description: description ?? spec.description,
    parameters: spec.parameters,
    ...(spec.outputSchema ? { outputSchema: spec.outputSchema } : {}),
    flags: { ...spec.flags, ...flags },
    needsApproval: (needsApproval as Tool["needsApproval"]) ?? spec.flags.needsApproval,
    timeoutMs,
    retries,
    maxResultChars,
    ...policyOf(capabilities ?? spec.capabilities, egress ?? spec.egress),
    fn,
    slots: spec.slots,
    spec,
    execute(args: ToolArgs, ctx: ToolContext<never>) {
      return fn(...bindArguments(spec.slots, args, ctx));
    },
  });
  if (!spec.slots.some((slot) => slot.kind === "context")) ignoresContext(made.execute);
  return made;
}

/** The policy members of a tool, left out when not given so tools without them keep their shape. */
export function policyOf(
  capabilities: readonly Capability[] | undefined,
  egress: string | undefined,
): Pick<Tool, "capabilities" | "egress"> {
  return { ...(capabilities ? { capabilities } : {}), ...(egress === undefined ? {} : { egress }) };
}
