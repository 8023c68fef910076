import { tool as agentsTool, type FunctionTool, type RunContext } from "@openai/agents";
import { openAiToolSchema } from "../../providers/openai-tools.js";
import type { Tool, ToolInput } from "../../tools/tool-types.js";
import { type AdapterOptions, approvalCheck, callTool, type ForeignCall, failureText, toolList } from "../call.js";

/** Options of {@link openAiAgentsTools}: the defaults toolwright's Agent would give each call. */
export interface OpenAiAgentsToolOptions<Deps = unknown> extends AdapterOptions<Deps> {
  /**
   * Send each tool in OpenAI's strict mode when its schema fits (default true), as
   * toolwright's OpenAI providers do: optional keys go out required and nullable, and the
   * nulls are dropped again before validation. A schema strict mode cannot take goes out
   * with `strict: false`.
   */
  readonly strict?: boolean;
}

/** What the SDK tells `execute` of a call besides its input. */
interface CallDetails {
  readonly toolCall?: { readonly callId: string };
  readonly signal?: AbortSignal;
}

function callOf(runContext: RunContext<unknown> | undefined, details: CallDetails | undefined): ForeignCall {
  return { callId: details?.toolCall?.callId, signal: details?.signal, context: runContext?.context };
}

function agentsFunctionTool(tool: Tool, options: OpenAiAgentsToolOptions): FunctionTool<unknown> {
  const { parameters, strict } = openAiToolSchema(tool, options.strict ?? true);
  const approval = approvalCheck(tool, options);
  return agentsTool({
    name: tool.name,
    description: tool.description,
    parameters: parameters as never,
    strict: strict as never,
    // What the model reads is what toolwright's loop sends: the serialized, capped result.
    execute: async (input: unknown, runContext?: RunContext<unknown>, details?: CallDetails) =>
      (await callTool(tool, input, callOf(runContext, details), options)).content,
    // A failed call reaches the model with toolwright's message (the feedback on bad arguments).
    errorFunction: (_runContext, error) => failureText(tool, error),
    ...(approval
      ? { needsApproval: (runContext, input, callId) => approval(input, { callId, context: runContext.context }) }
      : {}),
  }) as FunctionTool<unknown>;
}

/**
 * Toolwright tools as OpenAI Agents SDK `FunctionTool`s, for `new Agent({ tools })` and
 * `run()`. Each call is made as toolwright's loop makes it: the model's arguments safely
 * repaired, validated and deep-frozen, the `ToolContext` injected (`callId`
 * is the SDK's call id, `signal` the call's, `deps` the `deps` option or else the run
 * context's `context`), the time limit applied and the result checked and serialized; a
 * failure reaches the model with toolwright's message. A tool that needs approval gets the
 * SDK's `needsApproval`, decided on the validated arguments, so a run stops with
 * `interruptions` until `state.approve()` or `state.reject()`. The SDK parses the
 * arguments' JSON itself, before any tool code: broken JSON is its to report (strict mode,
 * on by default, makes the model send valid JSON).
 *
 * @example
 * ```ts
 * const agent = new Agent({ name: "support", instructions: "Help.", tools: openAiAgentsTools([lookupOrder, refund]) });
 * const result = await run(agent, "Refund order 42.");
 * for (const interruption of result.interruptions) result.state.approve(interruption);
 * ```
 */
export function openAiAgentsTools<Deps = unknown>(
  tools: readonly ToolInput[],
  options: OpenAiAgentsToolOptions<Deps> = {},
): FunctionTool<unknown>[] {
  return toolList(tools).map((tool) => agentsFunctionTool(tool, options));
}
