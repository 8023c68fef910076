import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { overHttp, overStdio, owned, stopAll, text } from "./cli-process.js";
import { compileProject } from "./compile-project.js";

/**
 * `toolwright mcp` as a real process: tools that need deps (a warning naming them, and
 * `--deps`), and the Streamable HTTP server's Origin and bearer-token checks from the
 * command line (`--allow-origin`, `--token-env`).
 */
const here = import.meta.dirname;
let outDir: string;
let tools: string;

beforeAll(() => {
  mkdirSync(path.join(here, ".tmp"), { recursive: true });
  outDir = mkdtempSync(path.join(here, ".tmp", "deps-tools-"));
  compileProject(path.join(here, "fixtures/deps-tools/tsconfig.json"), outDir);
  tools = path.join(outDir, "tools.js");
});

afterEach(stopAll);

afterAll(() => {
  rmSync(outDir, { recursive: true, force: true });
});

function post(
  url: URL,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, unknown> }> {
  const initialize = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1.0.0" } },
  };
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method: "POST",
        path: url.pathname,
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(initialize));
  });
}

describe("toolwright mcp: tools that take ToolContext<Deps>", () => {
  it("warns at start naming them when no --deps is given", async () => {
    const { client, stderr } = await overStdio(tools);
    await client.listTools();
    expect(stderr()).toContain(
      'toolwright mcp: warning: "temperature" takes ToolContext<Deps> and no --deps was given, so ctx.deps is undefined in every call.',
    );
    // A plain ToolContext asks for no deps, and is not named.
    expect(stderr()).not.toMatch(/"whoami"/);
  });

  it("serves them with the deps a --deps module gives, without the warning", async () => {
    const { client, stderr } = await overStdio(tools, "--deps", path.join(here, "fixtures/deps-tools/deps.mjs"));
    const result = await client.callTool({ name: "temperature", arguments: { city: "Oslo" } });
    expect(text(result)).toBe("21 degrees kelvin in Oslo");
    expect(stderr()).not.toMatch(/warning/);
  });
});

describe("toolwright mcp --http: who may reach it", () => {
  const token = "cli-secret-7f3a9";

  it("wants the bearer token from --token-env on every request, and never prints it", async () => {
    const { url, stderr } = await overHttp(tools, { MCP_TEST_TOKEN: token }, "--token-env", "MCP_TEST_TOKEN");
    const refused = await post(url, {});
    expect(refused.status).toBe(401);
    expect(refused.headers["www-authenticate"]).toBe('Bearer realm="mcp"');
    expect((await post(url, { authorization: "Bearer wrong" })).status).toBe(401);

    const client = owned(new Client({ name: "cli-http", version: "1.0.0" }));
    await client.connect(
      new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    );
    expect(text(await client.callTool({ name: "echo", arguments: { text: "let in" } }))).toBe("let in");
    expect(stderr()).toContain("(bearer token from $MCP_TEST_TOKEN)");
    expect(stderr()).not.toContain(token);
  });

  it("refuses other origins with 403, and lets in those --allow-origin lists", async () => {
    const { url } = await overHttp(
      tools,
      {},
      "--allow-origin",
      "https://inspector.example.com, https://app.example.com",
    );
    expect((await post(url, { origin: "http://evil.example.com" })).status).toBe(403);
    expect((await post(url, { origin: "https://app.example.com" })).status).toBe(200);
    expect((await post(url, { origin: "https://inspector.example.com" })).status).toBe(200);
  });

  it("refuses to start when the token's variable is not set", async () => {
    await expect(overHttp(tools, {}, "--token-env", "MCP_TEST_UNSET_TOKEN")).rejects.toThrow(
      /--token-env MCP_TEST_UNSET_TOKEN: the environment variable MCP_TEST_UNSET_TOKEN is not set or empty/,
    );
  });
});
