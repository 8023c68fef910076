import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import type { ToolInput } from "../tools/tool-types.js";
import { type EndpointAccess, endpointAccess, type McpAccessOptions, rpcError } from "./http-access.js";
import { type McpServerOptions, serveTools, sessionServer } from "./server.js";

/**
 * Where the Streamable HTTP endpoint listens, and who may reach it (see {@link McpAccessOptions}:
 * `allowedHosts`, `allowedOrigins`, `bearerToken`, `authorize`, `resourceMetadataUrl`).
 */
export interface McpHttpOptions extends McpAccessOptions {
  /** 0 picks a free port (read it back from `url`). */
  readonly port: number;
  /** Default `127.0.0.1`: reachable from this machine only. */
  readonly host?: string;
  /** The endpoint's path (default `/mcp`). */
  readonly path?: string;
}

/** A running MCP server; `close()` ends every session and stops listening. */
export interface McpServerHandle {
  /** The endpoint's URL (Streamable HTTP only), e.g. `http://127.0.0.1:41234/mcp`. */
  readonly url?: URL;
  /** Resolves once the server has stopped: `close()` was called, or (stdio) the client closed stdin. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 4 * 1024 * 1024;

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error(`request body over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

/**
 * Serves `tools` over MCP Streamable HTTP on one endpoint. Each client session (started
 * by an `initialize` POST, named by the `mcp-session-id` header afterwards) gets its own
 * SDK server and transport, so sessions never see each other's requests.
 *
 * @example
 * ```ts
 * const handle = await serveMcpHttp([weather], { name: "weather", version: "1.0.0" }, { port: 3000 });
 * console.log(`MCP endpoint: ${handle.url}`);
 * ```
 */
export async function serveMcpHttp<Deps>(
  tools: readonly ToolInput[],
  options: McpServerOptions<Deps>,
  http: McpHttpOptions,
): Promise<McpServerHandle> {
  // Checked once, now: a bad tool list or policy fails here, not on the first client's initialize.
  const served = serveTools(tools, options);
  const gate = endpointAccess(http, http.host ?? "127.0.0.1");
  const path = http.path ?? "/mcp";
  // Each session's transport, and whom it belongs to: a session is never taken over by another client.
  const sessions = new Map<string, { readonly transport: StreamableHTTPServerTransport; readonly owner: string }>();
  // Known once the server listens, which is before any request arrives.
  let access: EndpointAccess | undefined;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const verdict = await (access as EndpointAccess).check(req, res);
    if (verdict.answered) return;
    if (new URL(req.url ?? "/", "http://localhost").pathname !== path) {
      rpcError(res, 404, -32601, `Not found: the MCP endpoint is ${path}`);
      return;
    }
    const sessionId = req.headers["mcp-session-id"];
    if (typeof sessionId === "string") {
      const session = sessions.get(sessionId);
      if (session && session.owner === verdict.owner) await session.transport.handleRequest(req, res);
      else rpcError(res, 404, -32001, `Session ${sessionId} not found: it ended or never existed; initialize again.`);
      return;
    }
    if (req.method !== "POST") {
      rpcError(res, 400, -32000, "Bad request: send an initialize POST first, then the mcp-session-id header.");
      return;
    }
    const body = await readJson(req);
    if (!isInitializeRequest(body)) {
      rpcError(res, 400, -32000, "Bad request: no mcp-session-id header, and the body is not an initialize request.");
      return;
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, owner: verdict.owner });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await sessionServer(served, options, "http").connect(transport);
    await transport.handleRequest(req, res, body);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) res.end();
      else rpcError(res, 400, -32700, `Bad request: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(http.port, http.host ?? "127.0.0.1", () => resolve());
  });
  const closed = new Promise<void>((resolve) => server.once("close", () => resolve()));
  const address = server.address() as AddressInfo;
  access = gate(address.port);
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: new URL(`http://${host}:${address.port}${path}`),
    closed,
    async close() {
      await Promise.all([...sessions.values()].map((session) => session.transport.close()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
