import { type Tool as AiSdkTool, asSchema, type ToolSet } from "ai";
import { ToolArgumentError, ToolDefinitionError } from "../../errors.js";
import type { ToolContext } from "../../invoke/context.js";
import { defineTool } from "../../tools/define-tool.js";
import type { JsonSchema } from "../../tools/spec.js";
import { isStandardSchema, type StandardSchema } from "../../tools/standard-schema.js";
import type { ApprovalPredicate, InvokableTool, ToolArgs, ToolOptions } from "../../tools/tool-types.js";
import { argumentFeedback } from "../../validation/feedback.js";

/** Options of {@link fromAiSdkTools}: toolwright's per-tool settings, for every tool of the set. */
export type FromAiSdkOptions = Pick<
  ToolOptions,
  "timeoutMs" | "retries" | "maxResultChars" | "readOnly" | "idempotent" | "destructive" | "openWorld"
>;

type Output = Awaited<ReturnType<NonNullable<AiSdkTool["toModelOutput"]>>>;

/** The text of what an AI SDK tool's `toModelOutput` made: what the model would have read. */
function outputText(output: Output): unknown {
  switch (output.type) {
    case "text":
    case "error-text":
      return output.value;
    case "json":
    case "error-json":
      return output.value;
    case "execution-denied":
      return output.reason ?? "The call was denied.";
    case "content":
      return output.value.map((part) => (part.type === "text" ? part.text : `[${part.type}]`)).join("\n");
    default:
      return output;
  }
}

/** The last value of an `execute` that streams preliminary results, or its one value. */
async function finalValue(result: unknown): Promise<unknown> {
  if (typeof result !== "object" || result === null || !(Symbol.asyncIterator in result)) return result;
  let last: unknown;
  for await (const value of result as AsyncIterable<unknown>) last = value;
  return last;
}

/**
 * The JSON Schema and the extra check of an AI SDK input schema that is no Standard Schema
 * (`jsonSchema()`, zod 3, a lazy schema), read through the SDK's own `asSchema`.
 */
function sdkSchema(name: string, inputSchema: AiSdkTool["inputSchema"]) {
  const schema = asSchema(inputSchema);
  const json = schema.jsonSchema as unknown;
  if (typeof (json as PromiseLike<unknown> | undefined)?.then === "function") {
    throw new ToolDefinitionError(
      `AI SDK tool "${name}": its JSON Schema is only known asynchronously; await it and pass jsonSchema(theSchema) as its inputSchema.`,
      name,
    );
  }
  // The SDK writes draft-07; its "$schema" would make a 2020-12 validator refuse the schema.
  const { $schema: _dialect, ...parameters } = json as JsonSchema;
  return { parameters, validate: schema.validate };
}

function fromAiSdkTool(name: string, source: AiSdkTool, options: FromAiSdkOptions): InvokableTool {
  if (source.type === "provider") {
    throw new ToolDefinitionError(
      `AI SDK tool "${name}" is a provider tool: its provider runs it, so it cannot run inside a toolwright agent.`,
      name,
    );
  }
  const execute = source.execute;
  if (typeof execute !== "function") {
    throw new ToolDefinitionError(
      `AI SDK tool "${name}" has no execute function: give it one, or leave it to the AI SDK.`,
      name,
    );
  }
  const run = async (args: unknown, ctx: ToolContext<unknown>) => {
    const output = await finalValue(
      // `experimental_context` is ai 6's name for the call's context, `context` ai 7's.
      execute(args, {
        toolCallId: ctx.callId,
        messages: [],
        abortSignal: ctx.signal,
        experimental_context: ctx.deps,
        ...{ context: ctx.deps },
      }),
    );
    const toModelOutput = source.toModelOutput;
    return toModelOutput
      ? outputText(await toModelOutput({ toolCallId: ctx.callId, input: args, output } as never))
      : output;
  };
  const gate = source.needsApproval;
  const needsApproval: boolean | ApprovalPredicate | undefined =
    typeof gate === "function"
      ? async (ctx, args) =>
          gate(args, { toolCallId: ctx.callId, messages: [], experimental_context: ctx.deps, ...{ context: ctx.deps } })
      : gate;
  const common = {
    ...options,
    name,
    description: source.description ?? source.title ?? name,
    ...(needsApproval === undefined ? {} : { needsApproval }),
  };
  // A Standard Schema (zod 4, Valibot, ArkType): toolwright reads its JSON Schema and runs its validation.
  if (isStandardSchema(source.inputSchema)) {
    return defineTool({ ...common, parameters: source.inputSchema as StandardSchema, execute: run });
  }
  const { parameters, validate } = sdkSchema(name, source.inputSchema);
  return defineTool({
    ...common,
    parameters,
    async execute(args: ToolArgs, ctx) {
      // The schema's own check after toolwright's (a refinement JSON Schema cannot say).
      const verdict = validate ? await validate(args) : undefined;
      if (verdict && !verdict.success) {
        const issues = [{ code: "invalid_value", path: "", message: verdict.error.message }];
        throw new ToolArgumentError(argumentFeedback(name, issues, parameters), name, issues);
      }
      return run(verdict ? verdict.value : args, ctx);
    },
  });
}

/**
 * The tools of a Vercel AI SDK `ToolSet` as toolwright tools, for a toolwright `Agent` (or
 * `serveMcp`): each keeps its name (the set's key), description, approval rule and
 * `execute`. Its input schema, whatever library wrote it (zod 3 or 4, `jsonSchema()`,
 * Valibot, ArkType), becomes the JSON Schema the model sees and toolwright validates and
 * repairs against; the library's own validation then runs too. `execute` gets the call's
 * id as `toolCallId`, its signal as `abortSignal` and `ctx.deps` as its context
 * (`experimental_context` in ai 6, `context` in ai 7; `messages` is empty: toolwright's
 * transcript is not the SDK's).
 *
 * @example
 * ```ts
 * const agent = new Agent({ name: "support", model, tools: [...fromAiSdkTools({ weather }), lookupOrder] });
 * ```
 */
export function fromAiSdkTools(tools: ToolSet, options: FromAiSdkOptions = {}): InvokableTool[] {
  return Object.entries(tools).map(([name, source]) => fromAiSdkTool(name, source as AiSdkTool, options));
}
