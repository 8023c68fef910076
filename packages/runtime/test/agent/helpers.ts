import { type InvokableTool, type ToolContext, type ToolOptions, tool } from "../../src/index.js";

/** A tool taking `{ [key]: string }`, for tests; `execute` gets the arguments and the context. */
export function stringTool(
  name: string,
  execute: (args: { id: string } & Record<string, string>, ctx: ToolContext) => unknown,
  options: ToolOptions & { key?: string } = {},
): InvokableTool {
  const { key = "id", ...rest } = options;
  return tool({
    name,
    description: `Test tool ${name}, taking one string "${key}".`,
    parameters: {
      type: "object",
      properties: { [key]: { type: "string" } },
      required: [key],
      additionalProperties: false,
    },
    execute: (args, ctx) => execute(args as { id: string } & Record<string, string>, ctx),
    ...rest,
  });
}

/** Resolves after the current microtasks and one macrotask, so concurrent work can start. */
export function tick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
