import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import type { ToolInput } from "../tools/tool-types.js";
import { createMcpServer, type McpServerOptions } from "./server.js";

/** Where the Streamable HTTP endpoint listens. */
export interface McpHttpOptions {
  /** 0 picks a free port (read it back from `url`). */
  readonly port: number;
  /** Default `127.0.0.1`: reachable from this machine only. */
  readonly host?: string;
  /** The endpoint's path (default `/mcp`). */
  readonly path?: string;
  /**
   * `Host` headers to accept, e.g. `["mcp.example.com"]`; others get 403. This guards a
   * local server against DNS rebinding (a web page's script reaching it under another
   * name). Default: on a loopback host, `127.0.0.1`, `localhost` and `[::1]` at the port;
   * on any other host, every name.
   */
  readonly allowedHosts?: readonly string[];
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

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1"]);

function hostsFor(http: McpHttpOptions, port: number): string[] | undefined {
  if (http.allowedHosts) return [...http.allowedHosts];
  if (!LOOPBACK.has(http.host ?? "127.0.0.1")) return undefined;
  return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
}

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

function rpcError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
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
  // Fail on a bad tool list now, not on the first client's initialize.
  createMcpServer(tools, options, "http");
  const path = http.path ?? "/mcp";
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  // Known once the server listens, which is before any request arrives.
  let allowedHosts: string[] | undefined;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (allowedHosts && !allowedHosts.includes(req.headers.host ?? "")) {
      rpcError(res, 403, -32000, `Forbidden: Host "${req.headers.host ?? ""}" is not one this server answers to.`);
      return;
    }
    if (new URL(req.url ?? "/", "http://localhost").pathname !== path) {
      rpcError(res, 404, -32601, `Not found: the MCP endpoint is ${path}`);
      return;
    }
    const sessionId = req.headers["mcp-session-id"];
    if (typeof sessionId === "string") {
      const transport = sessions.get(sessionId);
      if (transport) await transport.handleRequest(req, res);
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
        sessions.set(id, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await createMcpServer(tools, options, "http").connect(transport);
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
  allowedHosts = hostsFor(http, address.port);
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: new URL(`http://${host}:${address.port}${path}`),
    closed,
    async close() {
      await Promise.all([...sessions.values()].map((transport) => transport.close()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
