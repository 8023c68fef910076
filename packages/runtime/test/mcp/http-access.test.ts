import { type IncomingHttpHeaders, request } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { ToolContext } from "../../src/invoke/context.js";
import { type McpHttpOptions, type McpServerHandle, mcpSession, serveMcp } from "../../src/mcp/index.js";
import type { Tool } from "../../src/tools/tool-types.js";

/**
 * Who may reach a Streamable HTTP server: Origin validation (the MCP transport
 * specification's MUST) and the resource-server side of MCP authorization, checked over
 * real HTTP on loopback, with raw requests for what the SDK client never sends.
 */

const whoami: Tool = {
  name: "whoami",
  description: "Says which client the call's credentials belong to.",
  parameters: { type: "object", properties: {}, additionalProperties: false },
  flags: { readOnly: true },
  execute: (_args, ctx: ToolContext<never>) => mcpSession(ctx)?.authInfo?.clientId ?? "nobody",
};

const handles: McpServerHandle[] = [];
const clients: Client[] = [];

async function serve(http: Omit<McpHttpOptions, "port">): Promise<McpServerHandle> {
  const handle = await serveMcp([whoami], {
    name: "guarded",
    version: "1.0.0",
    transport: { http: { port: 0, ...http } },
  });
  handles.push(handle);
  return handle;
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(handles.splice(0).map((handle) => handle.close()));
});

afterAll(async () => {
  await Promise.all(handles.map((handle) => handle.close()));
});

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1.0.0" } },
};

interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** One raw HTTP exchange with the endpoint. */
function raw(url: URL, headers: Record<string, string>, body?: unknown, method = "POST"): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path: url.pathname,
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      },
      (res) => {
        let data = "";
        res.on("data", (chunk) => {
          data += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: data }));
      },
    );
    req.on("error", reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

async function connect(url: URL, headers?: Record<string, string>): Promise<Client> {
  const client = new Client({ name: "access-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(url, headers ? { requestInit: { headers } } : undefined));
  clients.push(client);
  return client;
}

function text(result: Awaited<ReturnType<Client["callTool"]>>): string {
  return (result as CallToolResult).content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

describe("Origin validation on Streamable HTTP", () => {
  it("refuses a page of another origin with 403, even with a valid loopback Host", async () => {
    const url = (await serve({})).url as URL;
    const answer = await raw(url, { origin: "http://evil.example.com" }, initialize);
    expect(answer.status).toBe(403);
    expect(answer.headers["mcp-session-id"]).toBeUndefined();
    expect(JSON.parse(answer.body).error.message).toBe(
      'Forbidden: Origin "http://evil.example.com" may not call this server. Add it to allowedOrigins (--allow-origin) to let its pages in.',
    );
  });

  it('refuses the opaque origin "null" (sandboxed frames, file: pages)', async () => {
    const url = (await serve({})).url as URL;
    expect((await raw(url, { origin: "null" }, initialize)).status).toBe(403);
  });

  it("lets in the server's own loopback origins by default, with the CORS headers a page needs", async () => {
    const url = (await serve({})).url as URL;
    for (const name of ["127.0.0.1", "localhost", "[::1]"]) {
      const origin = `http://${name}:${url.port}`;
      const answer = await raw(url, { origin }, initialize);
      expect(answer.status).toBe(200);
      expect(answer.headers["mcp-session-id"]).toMatch(/^[0-9a-f-]{36}$/);
      expect(answer.headers["access-control-allow-origin"]).toBe(origin);
      expect(answer.headers["access-control-expose-headers"]).toContain("mcp-session-id");
    }
    // Another port of the same host is another origin.
    expect((await raw(url, { origin: "http://127.0.0.1:1" }, initialize)).status).toBe(403);
  });

  it("takes allowedOrigins instead of the default, and answers their CORS preflight", async () => {
    const url = (await serve({ allowedOrigins: ["https://inspector.example.com"] })).url as URL;
    expect((await raw(url, { origin: "https://inspector.example.com" }, initialize)).status).toBe(200);
    // Written another way, the same origin (default port, upper case).
    expect((await raw(url, { origin: "HTTPS://Inspector.Example.com:443" }, initialize)).status).toBe(200);
    expect((await raw(url, { origin: `http://127.0.0.1:${url.port}` }, initialize)).status).toBe(403);

    const preflight = await raw(url, { origin: "https://inspector.example.com" }, undefined, "OPTIONS");
    expect(preflight.status).toBe(204);
    expect(preflight.headers["access-control-allow-methods"]).toBe("GET, POST, DELETE");
    expect(preflight.headers["access-control-allow-headers"]).toContain("mcp-session-id");
    expect((await raw(url, { origin: "https://other.example.com" }, undefined, "OPTIONS")).status).toBe(403);
  });

  it("does not touch clients that send no Origin (the SDK's Node client)", async () => {
    const client = await connect((await serve({ allowedOrigins: ["https://inspector.example.com"] })).url as URL);
    expect(text(await client.callTool({ name: "whoami", arguments: {} }))).toBe("nobody");
  });

  it("refuses an allowedOrigins entry that is not an origin before listening", async () => {
    await expect(serve({ allowedOrigins: ["inspector.example.com"] })).rejects.toThrow(
      /allowedOrigins entry "inspector\.example\.com" is not an origin; write it as scheme:\/\/host\[:port\]/,
    );
  });
});

describe("a bearer token on Streamable HTTP", () => {
  const token = "s3cret-token-for-tests";

  it("answers a request without credentials with 401 and a Bearer challenge", async () => {
    const url = (await serve({ bearerToken: token })).url as URL;
    const answer = await raw(url, {}, initialize);
    expect(answer.status).toBe(401);
    expect(answer.headers["www-authenticate"]).toBe('Bearer realm="mcp"');
    expect(JSON.parse(answer.body).error.message).toBe("Unauthorized: this server wants Authorization: Bearer <token>");
  });

  it("answers a wrong token with 401 invalid_token, never echoing what was sent", async () => {
    const url = (await serve({ bearerToken: token })).url as URL;
    for (const sent of ["wrong-token", `${token}x`, token.slice(0, -1)]) {
      const answer = await raw(url, { authorization: `Bearer ${sent}` }, initialize);
      expect(answer.status).toBe(401);
      expect(answer.headers["www-authenticate"]).toBe(
        'Bearer realm="mcp", error="invalid_token", error_description="the bearer token is not valid"',
      );
      expect(JSON.stringify(answer)).not.toContain(sent);
    }
    // Another scheme is no bearer token.
    expect((await raw(url, { authorization: `Basic ${token}` }, initialize)).status).toBe(401);
  });

  it("lets the right token in, and wants it on every request of the session", async () => {
    const url = (await serve({ bearerToken: token })).url as URL;
    const client = await connect(url, { authorization: `Bearer ${token}` });
    expect(text(await client.callTool({ name: "whoami", arguments: {} }))).toBe("nobody");

    const opened = await raw(url, { authorization: `bearer ${token}` }, initialize);
    expect(opened.status).toBe(200);
    const session = opened.headers["mcp-session-id"] as string;
    const ping = { jsonrpc: "2.0", id: 2, method: "ping" };
    expect((await raw(url, { "mcp-session-id": session }, ping)).status).toBe(401);
  });

  it("names the protected resource metadata in the challenge when given", async () => {
    const url = (
      await serve({
        bearerToken: token,
        resourceMetadataUrl: "https://mcp.example.com/.well-known/oauth-protected-resource",
      })
    ).url as URL;
    expect((await raw(url, {}, initialize)).headers["www-authenticate"]).toBe(
      'Bearer realm="mcp", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource"',
    );
  });

  it("refuses an empty token, and a token together with an authorize hook", async () => {
    await expect(serve({ bearerToken: " " })).rejects.toThrow(/bearerToken is empty/);
    await expect(serve({ bearerToken: token, authorize: () => undefined })).rejects.toThrow(
      /give bearerToken or authorize, not both/,
    );
  });
});

describe("an authorize hook on Streamable HTTP", () => {
  const tokens: Record<string, string> = { "alice-token": "alice", "bob-token": "bob" };
  const authorize: McpHttpOptions["authorize"] = (req) => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    const clientId = token === undefined ? undefined : tokens[token];
    return clientId && token ? { token, clientId, scopes: ["tools"] } : undefined;
  };

  it("hands what it returns to the tools as the session's authInfo", async () => {
    const url = (await serve({ authorize })).url as URL;
    const alice = await connect(url, { authorization: "Bearer alice-token" });
    expect(text(await alice.callTool({ name: "whoami", arguments: {} }))).toBe("alice");
    const refused = await raw(url, { authorization: "Bearer mallory-token" }, initialize);
    expect(refused.status).toBe(401);
    expect(refused.headers["www-authenticate"]).toMatch(/^Bearer realm="mcp", error="invalid_token"/);
  });

  it("keeps a session to the client that opened it", async () => {
    const url = (await serve({ authorize })).url as URL;
    const opened = await raw(url, { authorization: "Bearer alice-token" }, initialize);
    const session = opened.headers["mcp-session-id"] as string;
    const ping = { jsonrpc: "2.0", id: 2, method: "ping" };
    const asBob = await raw(url, { authorization: "Bearer bob-token", "mcp-session-id": session }, ping);
    expect(asBob.status).toBe(404);
  });

  it("answers 500 without details when the hook itself throws", async () => {
    const url = (
      await serve({
        authorize: () => {
          throw new Error("database password is hunter2");
        },
      })
    ).url as URL;
    const answer = await raw(url, { authorization: "Bearer alice-token" }, initialize);
    expect(answer.status).toBe(500);
    expect(answer.body).not.toContain("hunter2");
    expect(JSON.parse(answer.body).error.message).toBe("Internal error: the server could not check the credentials.");
  });
});
