import type { StructuredToolInterface } from "@langchain/core/tools";
import { ToolInputParsingException } from "@langchain/core/tools";
import { toJsonSchema } from "@langchain/core/utils/json_schema";
import { ToolArgumentError } from "../../errors.js";
import { defineTool } from "../../tools/define-tool.js";
import type { JsonSchema } from "../../tools/spec.js";
import type { InvokableTool, ToolOptions } from "../../tools/tool-types.js";
import { argumentFeedback } from "../../validation/feedback.js";

/** Options of {@link fromLangChainTools}: toolwright's per-tool settings, for every tool of the list. */
export type FromLangChainOptions = Pick<
  ToolOptions,
  "timeoutMs" | "retries" | "maxResultChars" | "readOnly" | "idempotent" | "destructive" | "openWorld" | "needsApproval"
>;

/** What a LangChain tool returned, as the model would read it: a message's content, or the value. */
function contentOf(result: unknown): unknown {
  if (typeof result === "object" && result !== null && "content" in result && "tool_call_id" in result) {
    return (result as { content: unknown }).content;
  }
  return result;
}

function fromLangChainTool(source: StructuredToolInterface, options: FromLangChainOptions): InvokableTool {
  const name = source.name;
  // zod 3 or 4, a Standard JSON Schema, or JSON Schema itself: LangChain's own conversion.
  const { $schema: _dialect, ...parameters } = toJsonSchema(source.schema as never) as JsonSchema;
  return defineTool({
    ...options,
    name,
    description: source.description,
    parameters,
    async execute(args, ctx) {
      try {
        const context = ctx.deps;
        return contentOf(
          await source.invoke(args as never, {
            signal: ctx.signal,
            ...(context === undefined ? {} : { context }),
            ...(typeof context === "object" && context !== null
              ? { configurable: context as Record<string, unknown> }
              : {}),
          }),
        );
      } catch (error) {
        // The tool's own schema check (a zod refinement JSON Schema cannot say): the model's to fix.
        if (error instanceof ToolInputParsingException) {
          const issues = [{ code: "invalid_value", path: "", message: error.message }];
          throw new ToolArgumentError(argumentFeedback(name, issues, parameters), name, issues);
        }
        throw error;
      }
    },
  });
}

/**
 * LangChain.js tools (from `tool()` of `@langchain/core/tools`, or any `StructuredTool`) as
 * toolwright tools, for a toolwright `Agent` or `serveMcp`. Each keeps its name and
 * description; its schema (zod 3 or 4, or JSON Schema) becomes the JSON Schema the model
 * sees and toolwright validates and repairs against, and the tool's own check still runs
 * when it is invoked. It gets the call's signal, and `ctx.deps` as its `context` (and as
 * `configurable`, when it is an object).
 *
 * @example
 * ```ts
 * const agent = new Agent({ name: "research", model, tools: fromLangChainTools([searchTool]) });
 * ```
 */
export function fromLangChainTools(
  tools: readonly StructuredToolInterface[],
  options: FromLangChainOptions = {},
): InvokableTool[] {
  return tools.map((source) => fromLangChainTool(source, options));
}
