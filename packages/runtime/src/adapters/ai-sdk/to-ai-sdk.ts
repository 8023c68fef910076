import {
  type Tool as AiSdkTool,
  InvalidToolInputError,
  jsonSchema,
  type ToolCallRepairFunction,
  type ToolSet,
} from "ai";
import { capResult, DEFAULT_MAX_RESULT_CHARS, serializeResult } from "../../invoke/result.js";
import { parseArguments } from "../../repair/parse.js";
import type { Tool, ToolArgs, ToolInput } from "../../tools/tool-types.js";
import { type AdapterOptions, approvalCheck, callTool, toolList } from "../call.js";

/** Options of {@link aiSdkTools}: the defaults toolwright's Agent would give each call. */
export type AiSdkToolOptions<Deps = unknown> = AdapterOptions<Deps>;

/** The toolwright tool behind each AI SDK tool {@link aiSdkTools} made, for {@link repairToolCall}. */
const made = new WeakMap<object, Tool>();

function aiSdkTool(tool: Tool, options: AiSdkToolOptions): AiSdkTool<ToolArgs, unknown> {
  const approval = approvalCheck(tool, options);
  const maxChars = tool.maxResultChars ?? options.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS;
  const adapted: AiSdkTool<ToolArgs, unknown> = {
    description: tool.description,
    // No `validate`: the SDK passes the parsed arguments as they came, and toolwright checks
    // (and repairs) them inside `execute`, where its feedback reaches the model as the error.
    inputSchema: jsonSchema<ToolArgs>(tool.parameters as Parameters<typeof jsonSchema>[0]),
    ...(approval
      ? {
          needsApproval: (input, { toolCallId, experimental_context }) =>
            approval(input, { callId: toolCallId, context: experimental_context }),
        }
      : {}),
    execute: async (input, { toolCallId, abortSignal, experimental_context }) =>
      (await callTool(tool, input, { callId: toolCallId, signal: abortSignal, context: experimental_context }, options))
        .value,
    // The model reads what toolwright's loop would send: the same serialization and cap.
    toModelOutput: ({ output }) => ({ type: "text", value: capResult(serializeResult(output), maxChars).content }),
  };
  made.set(adapted, tool);
  return adapted;
}

/**
 * Toolwright tools as a Vercel AI SDK `ToolSet`, keyed by tool name, for `generateText`,
 * `streamText` or an AI SDK agent. Each `execute` makes the call as toolwright's loop does:
 * the model's arguments validated, safely repaired and deep-frozen, the `ToolContext`
 * injected (`callId` is the SDK's `toolCallId`, `signal` its `abortSignal`, `deps` the
 * `deps` option or else `experimental_context`), the time limit applied and the result
 * checked; a failure reaches the model as the SDK's tool error, with toolwright's message.
 * A tool that needs approval gets the SDK's `needsApproval`, decided on the validated
 * arguments. Pass {@link repairToolCall} as `experimental_repairToolCall` to have broken
 * JSON repaired too.
 *
 * @example
 * ```ts
 * const result = await generateText({
 *   model, prompt: "Weather in Paris?",
 *   tools: aiSdkTools([weather]),
 *   experimental_repairToolCall: repairToolCall,
 *   stopWhen: stepCountIs(5),
 * });
 * ```
 */
export function aiSdkTools<Deps = unknown>(tools: readonly ToolInput[], options: AiSdkToolOptions<Deps> = {}): ToolSet {
  const set: ToolSet = {};
  for (const tool of toolList(tools)) set[tool.name] = aiSdkTool(tool, options);
  return set;
}

type RepairOptions = Parameters<ToolCallRepairFunction<ToolSet>>[0];
type RepairedCall = Awaited<ReturnType<ToolCallRepairFunction<ToolSet>>>;

/**
 * For `experimental_repairToolCall`: repairs the broken JSON a model sent for a tool made by
 * {@link aiSdkTools} (a trailing comma, a code fence, a single quote), as toolwright's loop
 * does, so the call reaches `execute` and its checks. Anything else (an unknown tool, text
 * that holds no object, another tool's call) is left to the SDK: `null`.
 */
export async function repairToolCall({ toolCall, tools, error }: RepairOptions): Promise<RepairedCall> {
  const adapted = Object.hasOwn(tools, toolCall.toolName) ? tools[toolCall.toolName] : undefined;
  if (!adapted || !made.has(adapted) || !InvalidToolInputError.isInstance(error)) return null;
  const parsed = parseArguments(toolCall.input);
  return parsed.ok ? { ...toolCall, input: JSON.stringify(parsed.value) } : null;
}
