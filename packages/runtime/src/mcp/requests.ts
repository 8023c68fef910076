import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ErrorCode, type JSONRPCRequest, type ServerResult } from "@modelcontextprotocol/sdk/types.js";
import type { ServerExtra } from "./approval.js";

/**
 * A JSON-RPC error answer. Not an `McpError`, whose message already starts with
 * "MCP error <code>:": the SDK sends the message as it is, and the client puts that
 * prefix in front again when it reads the answer.
 */
export function protocolError(code: ErrorCode, message: string): Error & { readonly code: ErrorCode } {
  return Object.assign(new Error(message), { code });
}

/** What `safeParse` of one of the SDK's request schemas gives. */
interface Parsed<T> {
  readonly success: boolean;
  readonly data?: T;
  readonly error?: { readonly issues: readonly { readonly path: readonly PropertyKey[]; readonly message: string }[] };
}

/** One of the SDK's request schemas (zod objects), as far as this file reads them. */
export interface RequestSchema<T> {
  safeParse(value: unknown): Parsed<T>;
}

/**
 * The request checked against the SDK's schema for its method. A request that does not fit
 * is the caller's mistake: `-32602` (invalid params) with one line naming each wrong field,
 * e.g. `Invalid params of tools/call: params.arguments: Invalid input: expected record, received string`.
 */
export function checkedRequest<T>(schema: RequestSchema<T>, request: JSONRPCRequest): T {
  const parsed = schema.safeParse(request);
  if (parsed.success) return parsed.data as T;
  const problems = (parsed.error?.issues ?? []).map(
    (issue) => `${issue.path.length > 0 ? issue.path.map(String).join(".") : "params"}: ${issue.message}`,
  );
  throw protocolError(ErrorCode.InvalidParams, `Invalid params of ${request.method}: ${problems.join("; ")}`);
}

/** Answers one method of the protocol. */
export type Route = (request: JSONRPCRequest, extra: ServerExtra) => ServerResult | Promise<ServerResult>;

/**
 * Serves `routes` in place of the SDK's own handlers. The SDK parses a request with zod
 * before its handler runs and answers a mismatch with `-32603` and the whole zod dump
 * (several lines of JSON); the MCP specification asks for `-32602`. The SDK hands requests
 * without a handler of their own to `fallbackRequestHandler`, untouched: these methods go
 * there, and each route checks its request with {@link checkedRequest}.
 */
export function serveRoutes(server: Server, routes: Readonly<Record<string, Route>>): void {
  for (const method of Object.keys(routes)) server.removeRequestHandler(method);
  server.fallbackRequestHandler = async (request, extra) => {
    const route = routes[request.method];
    if (!route) throw protocolError(ErrorCode.MethodNotFound, `Method not found: ${request.method}`);
    return route(request, extra);
  };
}
