import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { type CallToolResult, ErrorCode, type LoggingLevel } from "@modelcontextprotocol/sdk/types.js";
import { ToolError, ToolTimeoutError, ToolwrightError } from "../errors.js";
import type { ToolContext, Usage } from "../invoke/context.js";
import { isMediaPart } from "../invoke/media.js";
import { serializeResult } from "../invoke/result.js";
import { runTool } from "../invoke/run-tool.js";
import { toolFetch } from "../invoke/tool-fetch.js";
import { unavailableMemory } from "../memory/memory.js";
import { touch } from "../policy/trifecta.js";
import { type PolicyState, policyVerdict } from "../policy/verdict.js";
import { rejectedText, timeoutText, unknownToolText } from "../runner/outcome.js";
import { backoffMs, type ResolvedRetryPolicy, sleep } from "../runner/retry.js";
import type { Tool, ToolArgs, ToolRunResult } from "../tools/tool-types.js";
import { validateArguments } from "../validation/arguments.js";
import { askApproval, requiresApproval, type ServerExtra } from "./approval.js";
import { mcpLogger } from "./logger.js";
import { mcpProgress } from "./progress.js";
import { protocolError } from "./requests.js";
import { type McpSession, mcpCallId, trackSession } from "./session.js";
import { type OutputShape, outputShapeOf, RESULT_KEY } from "./tool-listing.js";

/**
 * What a served call needs to know about the server it runs in: its tools, its policy, and
 * what the session's calls have touched (`touched`, for the trifecta).
 */
export interface CallSetup<Deps> extends PolicyState {
  readonly server: Server;
  readonly tools: ReadonlyMap<string, Tool>;
  readonly deps: Deps;
  /** Time limit of a tool that sets none, in milliseconds. */
  readonly toolTimeoutMs: number;
  /** How retryable `ToolError`s of read-only and idempotent tools are retried, as in the loop. */
  readonly toolRetry: ResolvedRetryPolicy;
  readonly transport: McpSession["transport"];
  /** The session id to use when the transport has none (stdio). */
  readonly connectionId: string;
  /** The level the client set with `logging/setLevel`, if it did: `ctx.log` lines below it are not sent. */
  readonly logLevel: () => LoggingLevel | undefined;
}

const NO_USAGE: Readonly<Usage> = Object.freeze({
  inputTokens: 0,
  outputTokens: 0,
  cachedInputTokens: 0,
  requests: 0,
  costUsd: 0,
});

/** A served tool has no agent, so no memory. */
const SERVED_MEMORY = unavailableMemory("ctx.memory is not available to a tool served over MCP: it has no agent run.");

function errorResult(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

/** `structuredContent` for a value that already passed the output check: plain JSON, wrapped when not an object. */
function structured(value: unknown, shape: OutputShape): Record<string, unknown> {
  const json: unknown = typeof value === "string" ? value : JSON.parse(serializeResult(value) || "null");
  return shape.wrapped ? { [RESULT_KEY]: json } : (json as Record<string, unknown>);
}

/** A media result (a part, or parts and strings) as MCP content blocks, in the tool's order. */
function mediaContent(value: unknown): CallToolResult["content"] {
  const items: unknown[] = Array.isArray(value) ? value : [value];
  return items.map((item) => {
    if (isMediaPart(item)) return { type: item.type, data: item.data, mimeType: item.mimeType };
    return { type: "text" as const, text: typeof item === "string" ? item : (item as { text: string }).text };
  });
}

/** Runs the tool, retrying a retryable `ToolError` of a read-only or idempotent tool with backoff, as the loop does. */
async function attempts<Deps>(
  setup: CallSetup<Deps>,
  tool: Tool,
  args: ToolArgs,
  contextFor: (attempt: number) => ToolContext<Deps>,
  signal: AbortSignal,
): Promise<ToolRunResult> {
  const mayRetry = tool.flags.readOnly === true || tool.flags.idempotent === true;
  for (let n = 1; ; n++) {
    try {
      return await runTool(tool, args, contextFor(n), { timeoutMs: setup.toolTimeoutMs });
    } catch (error) {
      if (signal.aborted) throw error;
      if (!(error instanceof ToolError && error.retryable && mayRetry && n < setup.toolRetry.maxAttempts)) throw error;
      await sleep(backoffMs(setup.toolRetry, n), signal);
    }
  }
}

/**
 * Serves one `tools/call` with the loop's checks, in the loop's order, and the loop's
 * words for each outcome. The arguments are validated: invalid ones get the loop's
 * feedback as an `isError` result. The server's policy then judges the call as an agent's
 * does (the `@egress` URL argument against the allowlist, the session's trifecta, the
 * approval tier), and approval is asked for through elicitation when the policy or the
 * tool wants it. The tool then runs with its time limit and retries, under a `ctx.signal` that
 * the client's `notifications/cancelled` aborts. Failures the model should read are
 * `isError` results; only an unknown tool name is a protocol error, as the MCP
 * specification asks.
 */
export async function handleCall<Deps>(
  setup: CallSetup<Deps>,
  name: string,
  rawArgs: unknown,
  extra: ServerExtra,
): Promise<CallToolResult> {
  const tool = setup.tools.get(name);
  if (!tool) throw protocolError(ErrorCode.InvalidParams, unknownToolText(name, [...setup.tools.keys()].sort()));
  const checked = validateArguments(tool, rawArgs ?? {});
  if (!checked.ok) return errorResult(checked.error.message);
  const verdict = policyVerdict(setup, tool, checked.args);
  if (verdict.kind === "refuse") return errorResult(rejectedText(verdict.message));

  const session: McpSession = {
    sessionId: extra.sessionId ?? setup.connectionId,
    requestId: extra.requestId,
    transport: setup.transport,
    client: setup.server.getClientVersion(),
    authInfo: extra.authInfo,
  };
  const log = mcpLogger(tool.name, extra, setup.logLevel);
  const progress = mcpProgress(extra);
  const contextFor = (attempt: number): ToolContext<Deps> => ({
    deps: setup.deps,
    runId: session.sessionId,
    callId: mcpCallId(session),
    toolName: tool.name,
    step: 1,
    attempt,
    signal: extra.signal,
    usage: NO_USAGE,
    log,
    progress,
    fetch: toolFetch(setup.policy, extra.signal),
    memory: SERVED_MEMORY,
  });
  const release = trackSession(session);
  try {
    const reason = verdict.kind === "approve" ? verdict.reason : undefined;
    if (reason !== undefined || (await requiresApproval(tool, contextFor(1) as ToolContext<never>, checked.args))) {
      const decision = await askApproval(setup.server, tool, checked.args, extra, reason);
      if (!decision.approved) return errorResult(rejectedText(decision.message));
    }
    // Counted once it is allowed to run, as in an agent's run: later calls of the session are judged with it.
    touch(setup.touched, tool);
    const run = await attempts(setup, tool, checked.args, contextFor, extra.signal);
    // Images and sounds go out as MCP image and audio content, beside the tool's text.
    if (run.media) return { content: mediaContent(run.value) };
    const shape = outputShapeOf(tool);
    return {
      content: [{ type: "text", text: run.content }],
      ...(shape ? { structuredContent: structured(run.value, shape) } : {}),
    };
  } catch (error) {
    if (error instanceof ToolTimeoutError) return errorResult(timeoutText(tool.name, error.timeoutMs));
    // Every other failure a tool can end with carries a model-facing message.
    if (error instanceof ToolwrightError) return errorResult(error.message);
    throw error;
  } finally {
    release();
  }
}
