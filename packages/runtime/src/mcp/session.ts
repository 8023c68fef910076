import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { Implementation, RequestId } from "@modelcontextprotocol/sdk/types.js";
import type { ToolContext } from "../invoke/context.js";

/** The MCP request a served tool call came from. */
export interface McpSession {
  /**
   * The transport's session id (Streamable HTTP), or an id made up per connection for
   * stdio, which has no session of its own. Also the call's `ctx.runId`.
   */
  readonly sessionId: string;
  /** The JSON-RPC id of the `tools/call` request; `ctx.callId` is `<sessionId>:<requestId>`. */
  readonly requestId: RequestId;
  readonly transport: "stdio" | "http";
  /** Who is calling, as the client said in `initialize`. */
  readonly client: Implementation | undefined;
  /** The validated access token, when the HTTP server sits behind MCP authorization. */
  readonly authInfo: AuthInfo | undefined;
}

// Keyed by callId, which is unique per request and survives however the runtime
// rebuilds the context object it hands to the tool.
const active = new Map<string, McpSession>();

/** The `ctx.callId` of a call served over MCP. */
export function mcpCallId(session: Pick<McpSession, "sessionId" | "requestId">): string {
  return `${session.sessionId}:${String(session.requestId)}`;
}

/** Makes `mcpSession(ctx)` answer for this call until `release` is called. */
export function trackSession(session: McpSession): () => void {
  const callId = mcpCallId(session);
  active.set(callId, session);
  return () => active.delete(callId);
}

/**
 * The MCP session and request of a tool call served by `serveMcp`, or `undefined` when
 * the call did not come over MCP (e.g. the same tool run by an `Agent`). `ctx` itself
 * stays the ordinary {@link ToolContext}: `runId` is the session id and `callId` is
 * `<sessionId>:<requestId>`, so a tool can log or key idempotency on them without this.
 *
 * @example
 * ```ts
 * function whoAmI(ctx: ToolContext): string {
 *   const session = mcpSession(ctx);
 *   return session ? `${session.client?.name} over ${session.transport}` : "not over MCP";
 * }
 * ```
 */
export function mcpSession(ctx: Pick<ToolContext, "callId">): McpSession | undefined {
  return active.get(ctx.callId);
}
