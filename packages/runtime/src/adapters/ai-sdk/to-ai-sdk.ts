import {
  type Tool as AiSdkTool,
  InvalidToolInputError,
  jsonSchema,
  type ToolCallRepairFunction,
  type ToolSet,
} from "ai";
import { capResult, DEFAULT_MAX_RESULT_CHARS, serializeResult } from "../../invoke/result.js";
import { parseArguments } from "../../repair/parse.js";
import { toolSchemas } from "../../standard/tool-schemas.js";
import type { Tool, ToolArgs, ToolInput } from "../../tools/tool-types.js";
import { type AdapterOptions, approvalCheck, callTool, toolList } from "../call.js";

/** Options of {@link aiSdkTools}: the defaults toolwright's Agent would give each call. */
export type AiSdkToolOptions<Deps = unknown> = AdapterOptions<Deps>;

/** The per-call context the SDK hands a tool: `experimental_context` in ai 6, the tool's `context` in ai 7. */
function sdkContext(options: object): unknown {
  const { context, experimental_context } = options as { context?: unknown; experimental_context?: unknown };
  return context !== undefined ? context : experimental_context;
}

/** The toolwright tool behind each AI SDK tool {@link aiSdkTools} made, for {@link repairToolCall}. */
const made = new WeakMap<object, Tool>();

function aiSdkTool(tool: Tool, options: AiSdkToolOptions): AiSdkTool<ToolArgs, unknown> {
  const approval = approvalCheck(tool, options);
  const maxChars = tool.maxResultChars ?? options.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS;
  const adapted: AiSdkTool<ToolArgs, unknown> = {
    description: tool.description,
    // The tool's Standard JSON Schema in draft-07, what the SDK asks of a Standard Schema. No
    // `validate`: the SDK passes the parsed arguments as they came, and toolwright checks (and
    // repairs) them inside `execute`, so its feedback reaches the model as the tool's error
    // (the SDK would send its own wording of a failed Standard Schema check instead).
    inputSchema: jsonSchema<ToolArgs>(() =>
      toolSchemas(tool).input["~standard"].jsonSchema.input({ target: "draft-07" }),
    ),
    ...(approval
      ? {
          needsApproval: (input, call) => approval(input, { callId: call.toolCallId, context: sdkContext(call) }),
        }
      : {}),
    execute: async (input, call) =>
      (
        await callTool(
          tool,
          input,
          { callId: call.toolCallId, signal: call.abortSignal, context: sdkContext(call) },
          options,
        )
      ).value,
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
 * `deps` option, else the SDK's context for the call: `experimental_context` in ai 6, the
 * tool's entry of `toolsContext` in ai 7), the time limit applied and the result
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
