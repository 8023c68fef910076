import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ErrorCode, McpError, type Tool as McpTool, type ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { ToolError } from "../errors.js";
import type { ToolContext } from "../invoke/context.js";
import type { Capability } from "../policy/capabilities.js";
import { withInvoke } from "../tools/function-tool.js";
import type { JsonSchema, ToolFlags } from "../tools/spec.js";
import type { InvokableTool, ToolArgs } from "../tools/tool-types.js";
import { contentText } from "./content.js";

/** How one remote tool becomes a toolwright tool; filled in by `mcpTools`. */
export interface RemoteToolOptions {
  /** The name the model sees (portable, unique); the server is still called with its own name. */
  readonly name: string;
  /** The server's name, for descriptions and error messages. */
  readonly serverName: string;
  readonly needsApproval?: boolean;
  /** What the tool touches, for the agent's trifecta policy. */
  readonly capabilities?: readonly Capability[] | undefined;
  readonly timeoutMs?: number;
  /** Upper bound of one `tools/call` request at the protocol level; `ctx.signal` usually ends it sooner. */
  readonly requestTimeoutMs: number;
}

/**
 * MCP hints mapped onto toolwright flags, with MCP's own defaults for hints the server
 * left out: a tool that does not say it only reads is taken as destructive, and one that
 * does not say otherwise as reaching the open world. That is the reading the MCP
 * specification asks clients to make, and it keeps the engine from retrying a tool that
 * might not be safe to run twice.
 */
export function flagsOf(annotations: ToolAnnotations | undefined): ToolFlags {
  const readOnly = annotations?.readOnlyHint === true;
  return {
    readOnly,
    destructive: readOnly ? false : (annotations?.destructiveHint ?? true),
    idempotent: readOnly || annotations?.idempotentHint === true,
    openWorld: annotations?.openWorldHint ?? true,
  };
}

/**
 * A server's schema as toolwright's validator takes it: servers built on zod 3 or
 * other generators send `$schema: draft-07`, which the 2020-12 validator would refuse to
 * load, while the keywords tool schemas use mean the same in both drafts.
 */
function withoutSchemaUri(schema: JsonSchema): JsonSchema {
  const { $schema: _draft, ...rest } = schema;
  return rest;
}

/** Socket-level failures: the request may not have reached the server, or its answer was lost on the way. */
const NETWORK_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/** The error and its causes, outermost first (a few levels: causes can form a cycle). */
function causes(error: unknown): Error[] {
  const chain: Error[] = [];
  for (let e = error; e instanceof Error && chain.length < 5; e = e.cause) chain.push(e);
  return chain;
}

/**
 * Errors that say the way to the server failed, not the tool: worth a retry for tools that
 * allow it. The SDK reports a closed connection and its own request timeout as `McpError`s;
 * a transport that could not deliver a request throws what its network layer threw (fetch
 * rejects with a `TypeError` "fetch failed" whose cause is the socket error).
 */
function isTransient(error: unknown): boolean {
  if (error instanceof McpError) {
    return error.code === ErrorCode.ConnectionClosed || error.code === ErrorCode.RequestTimeout;
  }
  return causes(error).some(
    (e) =>
      (e instanceof TypeError && e.message === "fetch failed") ||
      NETWORK_CODES.has(String((e as NodeJS.ErrnoException).code)),
  );
}

/** The message with its causes' messages, so "fetch failed" also says why. */
function failureText(error: unknown): string {
  const chain = causes(error);
  return chain.length > 0 ? chain.map((e) => e.message).join(": ") : String(error);
}

/**
 * One tool of an MCP server as a toolwright tool, with `invoke` as `tool()` tools have: its schema is the server's
 * own `inputSchema` (so the loop validates against it before anything is sent), its flags
 * come from the server's annotations, and a call is one `tools/call` request that
 * `ctx.signal` cancels (the server gets `notifications/cancelled`).
 */
export function remoteTool(client: Client, remote: McpTool, options: RemoteToolOptions): InvokableTool {
  const outputSchema = remote.outputSchema ? withoutSchemaUri(remote.outputSchema) : undefined;
  return withInvoke({
    name: options.name,
    description: remote.description ?? remote.title ?? `Tool "${remote.name}" of the MCP server ${options.serverName}.`,
    parameters: withoutSchemaUri(remote.inputSchema),
    ...(outputSchema ? { outputSchema } : {}),
    flags: flagsOf(remote.annotations),
    ...(options.needsApproval === undefined ? {} : { needsApproval: options.needsApproval }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.capabilities?.length ? { capabilities: options.capabilities } : {}),
    async execute(args: ToolArgs, ctx: ToolContext<never>) {
      let result: Awaited<ReturnType<Client["callTool"]>>;
      try {
        result = await client.callTool({ name: remote.name, arguments: { ...args } }, undefined, {
          signal: ctx.signal,
          timeout: options.requestTimeoutMs,
        });
      } catch (error) {
        // A timeout or a cancel is the engine's to report; pass it through untouched.
        if (ctx.signal.aborted) throw error;
        throw new ToolError(`MCP server ${options.serverName} failed on tool "${remote.name}": ${failureText(error)}`, {
          retryable: isTransient(error),
          cause: error,
        });
      }
      const content = Array.isArray(result.content) ? (result.content as Parameters<typeof contentText>[0]) : [];
      if (result.isError) throw new ToolError(contentText(content) || `tool "${remote.name}" failed without a message`);
      return result.structuredContent ?? contentText(content);
    },
  });
}
