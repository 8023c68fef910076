import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { type CallToolResult, ErrorCode, type LoggingLevel, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { ToolContext, ToolLogger, Usage } from "../context.js";
import { ToolwrightError } from "../errors.js";
import { serializeResult } from "../result.js";
import { runTool } from "../run-tool.js";
import type { Tool } from "../tool.js";
import { validateArguments } from "../validation/arguments.js";
import { askApproval, requiresApproval, type ServerExtra } from "./approval.js";
import { type McpSession, mcpCallId, trackSession } from "./session.js";
import { type OutputShape, outputShapeOf, RESULT_KEY } from "./tool-listing.js";

/** What a served call needs to know about the server it runs in. */
export interface CallSetup<Deps> {
  readonly server: Server;
  readonly tools: ReadonlyMap<string, Tool>;
  readonly deps: Deps;
  /** Time limit of a tool that sets none, in milliseconds. */
  readonly toolTimeoutMs: number;
  readonly transport: McpSession["transport"];
  /** The session id to use when the transport has none (stdio). */
  readonly connectionId: string;
}

const NO_USAGE: Readonly<Usage> = Object.freeze({
  inputTokens: 0,
  outputTokens: 0,
  cachedInputTokens: 0,
  requests: 0,
  costUsd: 0,
});

const levels: Record<keyof ToolLogger, LoggingLevel> = {
  debug: "debug",
  info: "info",
  warn: "warning",
  error: "error",
};

/**
 * `ctx.log` of a served call: each line goes to the client as an MCP log message
 * (`notifications/message`, logger = the tool's name) on the call's own stream. A client
 * that went away does not fail the tool.
 */
function mcpLogger(toolName: string, extra: ServerExtra): ToolLogger {
  const send = (level: keyof ToolLogger) => (message: string, data?: unknown) => {
    const payload = data === undefined ? message : { message, data };
    extra
      .sendNotification({
        method: "notifications/message",
        params: { level: levels[level], logger: toolName, data: payload },
      })
      .catch(() => {});
  };
  return { debug: send("debug"), info: send("info"), warn: send("warn"), error: send("error") };
}

function errorResult(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

/** `structuredContent` for a value that already passed the output check: plain JSON, wrapped when not an object. */
function structured(value: unknown, shape: OutputShape): Record<string, unknown> {
  const json: unknown = typeof value === "string" ? value : JSON.parse(serializeResult(value) || "null");
  return shape.wrapped ? { [RESULT_KEY]: json } : (json as Record<string, unknown>);
}

/**
 * Serves one `tools/call`: the same checks, in the same order, as the agent loop. The
 * arguments are validated (invalid ones get the loop's feedback as an `isError` result),
 * approval is asked for through elicitation when the tool needs it, and the tool runs
 * with its time limit and a `ctx.signal` that the client's `notifications/cancelled` aborts.
 * Failures the model should read are `isError` results, never protocol errors; only an
 * unknown tool name is a protocol error, as the MCP specification asks.
 */
export async function handleCall<Deps>(
  setup: CallSetup<Deps>,
  name: string,
  rawArgs: unknown,
  extra: ServerExtra,
): Promise<CallToolResult> {
  const tool = setup.tools.get(name);
  if (!tool) {
    const available = [...setup.tools.keys()].sort().join(", ");
    throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${name}". Available tools: ${available || "(none)"}.`);
  }
  const checked = validateArguments(tool, rawArgs ?? {});
  if (!checked.ok) return errorResult(checked.error.message);

  const session: McpSession = {
    sessionId: extra.sessionId ?? setup.connectionId,
    requestId: extra.requestId,
    transport: setup.transport,
    client: setup.server.getClientVersion(),
    authInfo: extra.authInfo,
  };
  const ctx: ToolContext<Deps> = {
    deps: setup.deps,
    runId: session.sessionId,
    callId: mcpCallId(session),
    toolName: tool.name,
    step: 1,
    attempt: 1,
    signal: extra.signal,
    usage: NO_USAGE,
    log: mcpLogger(tool.name, extra),
  };
  const release = trackSession(session);
  try {
    if (await requiresApproval(tool, ctx as ToolContext<never>, checked.args)) {
      const decision = await askApproval(setup.server, tool, checked.args, extra);
      if (!decision.approved) return errorResult(decision.message);
    }
    const run = await runTool(tool, checked.args, ctx, { timeoutMs: setup.toolTimeoutMs });
    const shape = outputShapeOf(tool);
    return {
      content: [{ type: "text", text: run.content }],
      ...(shape ? { structuredContent: structured(run.value, shape) } : {}),
    };
  } catch (error) {
    // Every failure a tool can end with carries its outcome and a model-facing message.
    if (error instanceof ToolwrightError) return errorResult(error.message);
    throw error;
  } finally {
    release();
  }
}
