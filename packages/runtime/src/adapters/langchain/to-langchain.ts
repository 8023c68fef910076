import type { CallbackManagerForToolRun } from "@langchain/core/callbacks/manager";
import { ToolMessage } from "@langchain/core/messages";
import { StructuredTool, type ToolRunnableConfig } from "@langchain/core/tools";
import { ToolDefinitionError } from "../../errors.js";
import type { JsonSchema } from "../../tools/spec.js";
import type { Tool, ToolInput } from "../../tools/tool-types.js";
import { validateArguments } from "../../validation/arguments.js";
import { type AdapterOptions, approvalCheck, callTool, failureText, toolList } from "../call.js";

/** Options of {@link langChainTools}. */
export interface LangChainToolOptions<Deps = unknown> extends AdapterOptions<Deps> {
  /**
   * How tools that need approval get it. LangChain tools cannot ask for approval
   * themselves, so such a tool is refused unless this says `"middleware"`: the agent then
   * runs LangChain's `humanInTheLoopMiddleware({ interruptOn: interruptOn(tools) })`, which
   * interrupts before the calls the tools' approval rules pick.
   */
  readonly approvals?: "middleware";
}

/** A LangChain tool call: what `ToolNode` passes to `invoke`. */
interface ToolCallInput {
  readonly type?: "tool_call";
  readonly id?: string;
  readonly name: string;
  readonly args: unknown;
}

function isToolCall(input: unknown): input is ToolCallInput {
  return (
    typeof input === "object" && input !== null && (input as { type?: unknown }).type === "tool_call" && "args" in input
  );
}

/** The error message ToolNode sends back for a failed call it invoked with a tool call. */
function errorMessage(tool: Tool, callId: string, text: string): ToolMessage {
  return new ToolMessage({ content: text, tool_call_id: callId, name: tool.name, status: "error" });
}

/**
 * A toolwright tool as a LangChain structured tool. toolwright checks (and repairs) the
 * arguments before LangChain's own schema check runs, so a model's `"3"` for a number is
 * read as 3 instead of refused, and the model reads toolwright's feedback for arguments
 * that are wrong.
 */
class ToolwrightLangChainTool extends StructuredTool<JsonSchema> {
  name: string;
  description: string;
  schema: JsonSchema;

  constructor(
    private readonly tool: Tool,
    private readonly options: LangChainToolOptions,
  ) {
    super();
    this.name = tool.name;
    this.description = tool.description;
    this.schema = tool.parameters;
  }

  // biome-ignore lint/suspicious/noExplicitAny: LangChain's own signature is generic over its input and config
  override async invoke(input: any, config?: any): Promise<any> {
    const call = isToolCall(input) ? input : undefined;
    const check = validateArguments(this.tool, call ? call.args : input);
    if (!check.ok) {
      if (call?.id !== undefined) return errorMessage(this.tool, call.id, check.error.message);
      throw check.error;
    }
    // Repaired arguments go on as JSON (a Date as its string), which LangChain's check reads.
    const args = check.repairs.length === 0 ? (call ? call.args : input) : JSON.parse(JSON.stringify(check.args));
    return super.invoke(call ? { ...call, args } : args, config);
  }

  protected override async _call(
    args: unknown,
    _runManager?: CallbackManagerForToolRun,
    config?: ToolRunnableConfig,
  ): Promise<string | ToolMessage> {
    const callId = config?.toolCall?.id;
    try {
      const run = await callTool(
        this.tool,
        args,
        { callId, signal: config?.signal, context: config?.context ?? config?.configurable },
        this.options,
      );
      return run.content;
    } catch (error) {
      // Invoked by ToolNode with a tool call: the model reads toolwright's message as the error result.
      if (callId !== undefined) return errorMessage(this.tool, callId, failureText(this.tool, error));
      throw error;
    }
  }
}

/**
 * Toolwright tools as LangChain.js structured tools, for `createAgent({ tools })`, a
 * `ToolNode` or `model.bindTools()`. Each call is made as toolwright's loop makes it: the
 * model's arguments validated, safely repaired and deep-frozen, the `ToolContext` injected
 * (`callId` is the tool call's id, `signal` the run's, `deps` the `deps` option or else the
 * run's `context`), the time limit applied, the result checked and serialized; a failure
 * comes back as an error `ToolMessage` with toolwright's message.
 *
 * @example
 * ```ts
 * const agent = createAgent({ model, tools: langChainTools([weather]) });
 * await agent.invoke({ messages: [{ role: "user", content: "Weather in Paris?" }] });
 * ```
 */
export function langChainTools<Deps = unknown>(
  tools: readonly ToolInput[],
  options: LangChainToolOptions<Deps> = {},
): StructuredTool<JsonSchema>[] {
  return toolList(tools).map((tool) => {
    if (approvalCheck(tool, options) && options.approvals !== "middleware") {
      throw new ToolDefinitionError(
        `tool "${tool.name}" needs approval, which a LangChain tool cannot ask for. Run the agent with ` +
          `humanInTheLoopMiddleware({ interruptOn: interruptOn(tools) }) and pass { approvals: "middleware" } to langChainTools.`,
        tool.name,
      );
    }
    return new ToolwrightLangChainTool(tool, options);
  });
}

/** What LangChain's `humanInTheLoopMiddleware` takes for one tool. */
export interface InterruptOnEntry {
  readonly allowedDecisions: ("approve" | "reject")[];
  readonly description: string;
  /** Whether this call interrupts: the tool's approval rule, on the validated arguments. */
  readonly when: (request: {
    readonly toolCall: { readonly id?: string; readonly args: unknown };
    readonly runtime?: { readonly context?: unknown };
  }) => Promise<boolean>;
}

/**
 * The `interruptOn` map of LangChain's `humanInTheLoopMiddleware` for the tools that need
 * approval: a call of one interrupts, to be approved or rejected, when the tool's rule says
 * so (its `needsApproval` predicate decides on the validated arguments, as in toolwright's
 * loop; arguments that fail validation interrupt nothing, the call fails and the model
 * reads why). Give the same `deps` as to {@link langChainTools} when the predicate reads them.
 *
 * @example
 * ```ts
 * createAgent({ model, tools: langChainTools(tools, { approvals: "middleware" }), checkpointer,
 *   middleware: [humanInTheLoopMiddleware({ interruptOn: interruptOn(tools) })] });
 * ```
 */
export function interruptOn(
  tools: readonly ToolInput[],
  options: AdapterOptions = {},
): Record<string, InterruptOnEntry> {
  const entries: Record<string, InterruptOnEntry> = {};
  for (const tool of toolList(tools)) {
    const check = approvalCheck(tool, options);
    if (check === undefined) continue;
    entries[tool.name] = {
      allowedDecisions: ["approve", "reject"],
      description: `Approve a call of ${tool.name}: ${tool.description}`,
      when: ({ toolCall, runtime }) => check(toolCall.args, { callId: toolCall.id, context: runtime?.context }),
    };
  }
  return entries;
}
