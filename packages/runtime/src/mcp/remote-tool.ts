import {
  type CallToolResult,
  ErrorCode,
  McpError,
  type Tool as McpTool,
  type Progress,
  type ToolAnnotations,
} from "@modelcontextprotocol/sdk/types.js";
import { ToolError } from "../errors.js";
import type { ToolContext } from "../invoke/context.js";
import type { Capability } from "../policy/capabilities.js";
import { withInvoke } from "../tools/function-tool.js";
import type { JsonSchema, ToolFlags } from "../tools/spec.js";
import type { InvokableTool, ToolArgs } from "../tools/tool-types.js";
import { failureText, isConnectionFailure, type ServerConnection } from "./connection.js";
import { contentText } from "./content.js";
import { callAsTask } from "./task-call.js";

/** How one remote tool becomes a toolwright tool; filled in by `mcpTools`. */
export interface RemoteToolOptions {
  /** The name the model sees (portable, unique); the server is still called with its own name. */
  readonly name: string;
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

/**
 * Failures worth a retry for tools that allow one: the way to the server failed (the request
 * may never have run), or the SDK's own request timeout ended it.
 */
function isTransient(error: unknown): boolean {
  return isConnectionFailure(error) || (error instanceof McpError && error.code === ErrorCode.RequestTimeout);
}

/**
 * One tool of an MCP server as a toolwright tool, with `invoke` as `tool()` tools have: its schema is the server's
 * own `inputSchema` (so the loop validates against it before anything is sent), its flags
 * come from the server's annotations, and a call is one `tools/call` request that
 * `ctx.signal` cancels (the server gets `notifications/cancelled`). The request carries a
 * `progressToken`: the server's progress reaches `ctx.progress` (a `tool-progress` event of
 * the agent's stream). A tool the server runs only as a task is called as one.
 */
export function remoteTool(connection: ServerConnection, remote: McpTool, options: RemoteToolOptions): InvokableTool {
  const serverName = connection.name;
  const asTask = remote.execution?.taskSupport === "required";
  const outputSchema = remote.outputSchema ? withoutSchemaUri(remote.outputSchema) : undefined;
  return withInvoke({
    name: options.name,
    description: remote.description ?? remote.title ?? `Tool "${remote.name}" of the MCP server ${serverName()}.`,
    parameters: withoutSchemaUri(remote.inputSchema),
    ...(outputSchema ? { outputSchema } : {}),
    flags: flagsOf(remote.annotations),
    ...(options.needsApproval === undefined ? {} : { needsApproval: options.needsApproval }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.capabilities?.length ? { capabilities: options.capabilities } : {}),
    async execute(args: ToolArgs, ctx: ToolContext<never>) {
      const onprogress = (report: Progress) => ctx.progress(report.progress, report.total, report.message);
      let result: CallToolResult;
      try {
        result = await connection.request(
          (client, signal, progressToken) => {
            const params = { name: remote.name, arguments: { ...args }, _meta: { progressToken } };
            const request = { signal, timeout: options.requestTimeoutMs };
            return asTask
              ? callAsTask(client, params, request, ctx.log)
              : (client.callTool(params, undefined, request) as Promise<CallToolResult>);
          },
          ctx.signal,
          onprogress,
        );
      } catch (error) {
        // A timeout or a cancel is the engine's to report; pass it through untouched.
        if (ctx.signal.aborted) throw error;
        if (error instanceof ToolError) throw error;
        throw new ToolError(`MCP server ${serverName()} failed on tool "${remote.name}": ${failureText(error)}`, {
          retryable: isTransient(error),
          cause: error,
        });
      }
      const content = Array.isArray(result.content) ? (result.content as Parameters<typeof contentText>[0]) : [];
      if (result.isError) throw new ToolError(contentText(content) || `tool "${remote.name}" failed without a message`);
      if (result.structuredContent) return result.structuredContent;
      // Images and sounds travel on as media parts (the model sees them where its provider takes them).
      return content.some((block) => block.type === "image" || block.type === "audio")
        ? content.map((block) =>
            block.type === "image" || block.type === "audio"
              ? { type: block.type, data: block.data, mimeType: block.mimeType }
              : contentText([block]),
          )
        : contentText(content);
    },
  });
}
