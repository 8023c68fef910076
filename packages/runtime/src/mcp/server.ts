import { randomUUID } from "node:crypto";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  type LoggingLevel,
  SetLevelRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { ToolDefinitionError } from "../errors.js";
import { DEFAULT_TIMEOUT_MS } from "../invoke/run-tool.js";
import type { PolicyOptions } from "../policy/run-policy.js";
import type { RunObserver } from "../runner/observer.js";
import { resolveRetryPolicy, type ToolRetryPolicy } from "../runner/retry.js";
import { asTool, toTool } from "../tools/tool-input.js";
import type { Tool, ToolInput } from "../tools/tool-types.js";
import { type CallSetup, handleCall } from "./call-handler.js";
import { observeCall } from "./observe-call.js";
import { checkedRequest, protocolError, serveRoutes } from "./requests.js";
import { resolveServedPolicy, type ServedPolicy } from "./served-policy.js";
import { type McpSession, mcpCallId } from "./session.js";
import { describeTool } from "./tool-listing.js";

/**
 * Options of {@link createMcpServer}, and of `serveMcp`. The security policy is an agent's
 * (docs/security.md): `egress` lists where `ctx.fetch` and `@egress` URL arguments may go,
 * `approve` sends calls to a person by the tools' flags (asked through elicitation), and
 * `trifecta` judges the calls of each client session as an agent judges a run's.
 */
export interface McpServerOptions<Deps = unknown> extends PolicyOptions {
  /** The server's name, as clients show it (e.g. `"weather"`). */
  readonly name: string;
  readonly version: string;
  /** Shown to the client's model as guidance on using this server. */
  readonly instructions?: string;
  /** `ctx.deps` of every call. */
  readonly deps?: Deps;
  /** Time limit of a tool that sets none, in milliseconds (default 60,000). */
  readonly toolTimeoutMs?: number;
  /**
   * Retries of a retryable `ToolError` from a `readOnly` or `idempotent` tool before the
   * client sees it, as in the agent loop (default 3 attempts, 500 ms then 1 s).
   */
  readonly toolRetry?: ToolRetryPolicy;
  /** Follow every served call, e.g. `openTelemetry()` from `toolwright/telemetry`. */
  readonly observers?: readonly RunObserver[];
}

function toolMap(inputs: readonly ToolInput[]): Map<string, Tool> {
  const tools = new Map<string, Tool>();
  for (const input of inputs) {
    // A tool made by tool(fn, options) also carries `fn` and `spec`, and toTool would rebuild
    // it from those, dropping its options (timeoutMs, needsApproval); take it as the tool it is.
    const tool = typeof input === "object" && "execute" in input ? asTool(input) : toTool(input);
    if (tools.has(tool.name)) {
      throw new ToolDefinitionError(
        `two tools are named "${tool.name}" in one MCP server; MCP clients call tools by name. ` +
          `Rename one with tool(fn, { name: "..." }).`,
        tool.name,
      );
    }
    tools.set(tool.name, tool);
  }
  return tools;
}

/** What every session of one server shares: its tools, their listing and its policy, checked once. */
export interface ServedTools {
  readonly tools: ReadonlyMap<string, Tool>;
  readonly listing: ReturnType<typeof describeTool>[];
  readonly policy: ServedPolicy;
}

/**
 * Checks a server's tools and options once, before any client connects: duplicate names are
 * a `ToolDefinitionError`, policy mistakes a `McpServerConfigError`, each naming the fix.
 */
export function serveTools(tools: readonly ToolInput[], options: McpServerOptions<unknown>): ServedTools {
  const byName = toolMap(tools);
  return {
    tools: byName,
    listing: [...byName.values()].map(describeTool),
    policy: resolveServedPolicy(options.name, options, byName.values()),
  };
}

/**
 * An MCP server (the official SDK's `Server`) that lists and calls `tools`. Connect it
 * to any SDK transport; `serveMcp` does that for stdio and Streamable HTTP. One server
 * serves one connection, as the SDK requires: make one per session.
 *
 * @example
 * ```ts
 * import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
 * const server = createMcpServer([weather, forecast], { name: "weather", version: "1.0.0" });
 * await server.connect(new StdioServerTransport());
 * ```
 */
export function createMcpServer<Deps = unknown>(
  tools: readonly ToolInput[],
  options: McpServerOptions<Deps>,
  transport: McpSession["transport"] = "stdio",
): Server {
  return sessionServer(serveTools(tools, options), options, transport);
}

/** The SDK server of one session (one connection) of checked tools. */
export function sessionServer<Deps>(
  served: ServedTools,
  options: McpServerOptions<Deps>,
  transport: McpSession["transport"],
): Server {
  const server = new Server(
    { name: options.name, version: options.version },
    {
      capabilities: { tools: {}, logging: {} },
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    },
  );
  // The least severe level the client wants to hear (`logging/setLevel`); every level until it asks.
  let logLevel: LoggingLevel | undefined;
  const setup: CallSetup<Deps | undefined> = {
    server,
    tools: served.tools,
    ...served.policy,
    // What this session's calls have touched, for the trifecta: one record per client session.
    touched: {},
    deps: options.deps,
    toolTimeoutMs: options.toolTimeoutMs ?? DEFAULT_TIMEOUT_MS,
    toolRetry: resolveRetryPolicy(options.toolRetry),
    transport,
    connectionId: randomUUID(),
    logLevel: () => logLevel,
  };
  const observers = options.observers ?? [];
  serveRoutes(server, {
    "tools/list": (request) => {
      const cursor = checkedRequest(ListToolsRequestSchema, request).params?.cursor;
      if (cursor !== undefined) {
        throw protocolError(
          ErrorCode.InvalidParams,
          `Unknown cursor ${JSON.stringify(cursor)}: this server lists every tool in one page and never issued a cursor. ` +
            "Call tools/list without one.",
        );
      }
      return { tools: served.listing };
    },
    "tools/call": (request, extra) => {
      const { name, arguments: args } = checkedRequest(CallToolRequestSchema, request).params;
      const sessionId = extra.sessionId ?? setup.connectionId;
      const start = {
        toolName: name,
        callId: mcpCallId({ sessionId, requestId: extra.requestId }),
        sessionId,
        requestId: extra.requestId,
        args,
      };
      return observeCall(observers, start, () => handleCall(setup, name, args, extra));
    },
    "logging/setLevel": (request) => {
      logLevel = checkedRequest(SetLevelRequestSchema, request).params.level;
      return {};
    },
  });
  return server;
}
