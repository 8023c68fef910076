import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { overHttp, overStdio, owned, stopAll, text } from "./cli-process.js";
import { compileProject } from "./compile-project.js";

/**
 * `toolwright mcp` with the policy flags, as a real process spoken to by the SDK's client:
 * `--egress` gives the served tools' ctx.fetch its allowlist and checks an `@egress` URL
 * argument before the call; `--approve` sends calls to a person through elicitation; a
 * served `@egress` tool without `--egress` stops the server at start, naming the flag.
 */
const here = import.meta.dirname;
let outDir: string;
let tools: string;
let site: { base: string; hits: string[]; server: Server };

beforeAll(async () => {
  mkdirSync(path.join(here, ".tmp"), { recursive: true });
  outDir = mkdtempSync(path.join(here, ".tmp", "egress-tools-"));
  compileProject(path.join(here, "fixtures/egress-tools/tsconfig.json"), outDir);
  tools = path.join(outDir, "tools.js");
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? "");
    res.writeHead(200, { "content-type": "text/plain" }).end(`page text of ${req.url}`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  site = { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits, server };
});

afterEach(async () => {
  await stopAll();
  site.hits.length = 0;
});

afterAll(async () => {
  site.server.closeAllConnections();
  await new Promise<void>((resolve) => site.server.close(() => resolve()));
  rmSync(outDir, { recursive: true, force: true });
});

/** What the model reads when fetch_page is given a URL off the allowlist. */
function offList(url: string): string {
  return (
    `Not run: fetch_page may not reach the "url" given: its host is the IP address ${new URL(url).hostname}, in loopback (this machine), ` +
    `which is not on the allowlist; allowed: ${site.base}. Use a URL the allowlist allows, or tell the user this address cannot be reached.`
  );
}

describe("toolwright mcp --egress", () => {
  it("over stdio: the tool's fetch reaches a listed host; a URL argument off the list is refused before the call", async () => {
    const { client, stderr } = await overStdio(tools, "--name", "pages", "--egress", site.base);
    const allowed = await client.callTool({ name: "fetch_page", arguments: { url: `${site.base}/page` } });
    expect(allowed.isError).toBeFalsy();
    expect(text(allowed)).toBe("page text of /page");

    const elsewhere = "http://127.0.0.2:9/secret";
    const refused = await client.callTool({ name: "fetch_page", arguments: { url: elsewhere } });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toBe(offList(elsewhere));
    expect(site.hits).toEqual(["/page"]);
    expect(stderr()).toContain(`toolwright mcp: serving 2 tools from ${tools} over stdio; egress: ${site.base}`);
  });

  it("over Streamable HTTP: the same allowlist, and --approve asks through elicitation or refuses", async () => {
    const { url } = await overHttp(tools, {}, "--egress", site.base, "--approve", "destructive");
    const plain = owned(new Client({ name: "no-elicitation", version: "1.0.0" }));
    await plain.connect(new StreamableHTTPClientTransport(url));
    expect(text(await plain.callTool({ name: "fetch_page", arguments: { url: `${site.base}/page` } }))).toBe(
      "page text of /page",
    );
    expect(text(await plain.callTool({ name: "fetch_page", arguments: { url: "http://127.0.0.2:9/" } }))).toBe(
      offList("http://127.0.0.2:9/"),
    );
    const unasked = await plain.callTool({ name: "delete_note", arguments: { id: "n1" } });
    expect(unasked.isError).toBe(true);
    expect(text(unasked)).toBe(
      'Not run: tool "delete_note" needs a person\'s approval before it runs (delete_note is destructive and this MCP server approves destructive tools), ' +
        'and this MCP client cannot ask for it (it does not declare the "elicitation" capability). The call did not run. ' +
        "Use a client that supports elicitation, or tell the user this step needs their approval.",
    );

    const asked: string[] = [];
    const person = owned(
      new Client({ name: "with-elicitation", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } } }),
    );
    person.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      return { action: "accept", content: { approve: true } };
    });
    await person.connect(new StreamableHTTPClientTransport(url));
    expect(text(await person.callTool({ name: "delete_note", arguments: { id: "n1" } }))).toBe("deleted note n1");
    expect(asked).toEqual([
      'Allow the tool "delete_note" to run with these arguments?\n{\n  "id": "n1"\n}\n' +
        "Why you are asked: delete_note is destructive and this MCP server approves destructive tools.",
    ]);
  });

  it("refuses to start when a served tool has a URL argument and no --egress is given, naming the flag", async () => {
    await expect(overHttp(tools, {}, "--name", "pages")).rejects.toThrow(
      'toolwright mcp: MCP server "pages": tool "fetch_page" sends requests to its "url" argument, but the MCP server has no egress allowlist. ' +
        'Fix: list the hosts it may reach, as in serveMcp(tools, { egress: { allow: ["api.example.com"] } }), or toolwright mcp --egress api.example.com.',
    );
  });

  it("refuses to start on a policy value the server does not know", async () => {
    await expect(overHttp(tools, {}, "--name", "pages", "--egress", site.base, "--trifecta", "ask")).rejects.toThrow(
      'toolwright mcp: MCP server "pages": trifecta must be "refuse", "approve" or "allow", got "ask".',
    );
    await expect(overHttp(tools, {}, "--name", "pages", "--egress", "*.com")).rejects.toThrow(
      'toolwright mcp: MCP server "pages": egress.allow entry "*.com" is a wildcard over the public suffix "com"',
    );
  });
});
