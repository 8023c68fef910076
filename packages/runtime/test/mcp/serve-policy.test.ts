import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type CallToolResult, ElicitRequestSchema, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ToolContext } from "../../src/invoke/context.js";
import {
  createMcpServer,
  McpServerConfigError,
  type McpServerHandle,
  type ServeMcpOptions,
  serveMcp,
  serveMcpHttp,
} from "../../src/mcp/index.js";
import type { Tool, ToolArgs } from "../../src/tools/tool-types.js";

/**
 * A served tool under the policy an agent takes (egress allowlist, approval tier, trifecta),
 * seen by the official SDK client over Streamable HTTP on loopback: what is refused and
 * what runs, and the mistakes `serveMcp` refuses when the server is made.
 */

const handles: McpServerHandle[] = [];
const clients: Client[] = [];
let site: { base: string; hits: string[]; server: Server };

/** A web server on loopback: `/page` answers, `/away` redirects to the same page on `localhost`. */
beforeAll(async () => {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? "");
    const port = (server.address() as AddressInfo).port;
    if (req.url === "/away") res.writeHead(302, { location: `http://localhost:${port}/page` }).end();
    else res.writeHead(200, { "content-type": "text/plain" }).end(`page text of ${req.url}`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  site = { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits, server };
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(handles.splice(0).map((handle) => handle.close()));
  site.hits.length = 0;
});

afterAll(async () => {
  site.server.closeAllConnections();
  await new Promise<void>((resolve) => site.server.close(() => resolve()));
});

const URL_ARGUMENT = {
  type: "object",
  properties: { url: { type: "string" } },
  required: ["url"],
  additionalProperties: false,
} as const;
const NO_ARGUMENTS = { type: "object", properties: {}, additionalProperties: false } as const;

/** Fetches its `url` argument (its egress) through ctx.fetch; counts the calls that ran. */
function pageTool(ran: string[]): Tool {
  return {
    name: "fetch_page",
    description: "Fetches a web page and returns its text.",
    parameters: URL_ARGUMENT,
    flags: { readOnly: true },
    egress: "url",
    capabilities: ["untrusted_content"],
    async execute(args: ToolArgs, ctx: ToolContext<never>) {
      ran.push(String(args.url));
      return (await ctx.fetch(String(args.url))).text();
    },
  };
}

/** Fetches a URL of its own choosing through ctx.fetch: no URL argument, so only ctx.fetch can check it. */
const headline: Tool = {
  name: "headline",
  description: "Today's headline from the news service.",
  parameters: NO_ARGUMENTS,
  flags: { readOnly: true },
  async execute(_args: ToolArgs, ctx: ToolContext<never>) {
    return (await ctx.fetch(`${site.base}/news`)).text();
  },
};

function simple(name: string, flags: Tool["flags"], capabilities: Tool["capabilities"] = []): Tool {
  return {
    name,
    description: `The ${name} tool.`,
    parameters: NO_ARGUMENTS,
    flags,
    capabilities,
    execute: () => `${name} done`,
  };
}

async function serve(tools: readonly Tool[], options: Omit<ServeMcpOptions, "name" | "version"> = {}) {
  const handle = await serveMcp(tools, { name: "web", version: "1.0.0", transport: { http: { port: 0 } }, ...options });
  handles.push(handle);
  return handle;
}

async function connect(handle: McpServerHandle, elicit?: (message: string) => ElicitResult): Promise<Client> {
  const client = new Client(
    { name: "policy-test", version: "1.0.0" },
    elicit ? { capabilities: { elicitation: { form: {} } } } : undefined,
  );
  if (elicit) client.setRequestHandler(ElicitRequestSchema, (request) => elicit(request.params.message));
  await client.connect(new StreamableHTTPClientTransport(handle.url as URL));
  clients.push(client);
  return client;
}

function text(result: Awaited<ReturnType<Client["callTool"]>>): string {
  return (result as CallToolResult).content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

describe("serveMcp({ egress }): where served tools may send requests", () => {
  it("lets ctx.fetch reach a listed host, and checks the @egress URL argument before the call", async () => {
    const ran: string[] = [];
    const client = await connect(await serve([pageTool(ran)], { egress: { allow: [site.base] } }));

    const allowed = await client.callTool({ name: "fetch_page", arguments: { url: `${site.base}/page` } });
    expect(allowed.isError).toBeFalsy();
    expect(text(allowed)).toBe("page text of /page");

    const refused = await client.callTool({
      name: "fetch_page",
      arguments: { url: "http://169.254.169.254/latest/meta-data" },
    });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toBe(
      'Not run: fetch_page may not reach the "url" given: its host is the IP address 169.254.169.254, in link-local (cloud metadata services live here), ' +
        `which is not on the allowlist; allowed: ${site.base}. Use a URL the allowlist allows, or tell the user this address cannot be reached.`,
    );
    // Refused before the call: the tool never ran, so nothing was sent.
    expect(ran).toEqual([`${site.base}/page`]);
    expect(site.hits).toEqual(["/page"]);
  });

  it("holds ctx.fetch to the list: a listed host's redirect elsewhere is refused", async () => {
    const client = await connect(await serve([pageTool([])], { egress: { allow: [site.base] } }));
    const result = await client.callTool({ name: "fetch_page", arguments: { url: `${site.base}/away` } });
    expect(result.isError).toBe(true);
    const port = new URL(site.base).port;
    expect(text(result)).toMatch(
      `ctx.fetch ${site.base}/away redirected to http://localhost:${port}/page, which was refused: its host localhost is this machine, which is not on the allowlist`,
    );
    expect(site.hits).toEqual(["/away"]);
  });

  it("refuses every ctx.fetch of a server without an allowlist, naming the server's fix, not an Agent's", async () => {
    const client = await connect(await serve([headline]));
    const result = await client.callTool({ name: "headline", arguments: {} });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(
      `ctx.fetch refused ${site.base}/news: this MCP server has no egress allowlist, so tools may not send requests. ` +
        'The developer can allow hosts with serveMcp(tools, { egress: { allow: ["api.example.com"] } }), or toolwright mcp --egress api.example.com.',
    );
    expect(text(result)).not.toMatch(/new Agent/);
    expect(site.hits).toEqual([]);
  });
});

describe("serveMcp's policy mistakes are thrown when the server is made", () => {
  const info = { name: "web", version: "1.0.0" };

  it("refuses an @egress tool on a server with no allowlist, naming both fixes", async () => {
    const made = serveMcp([pageTool([])], { ...info, transport: { http: { port: 0 } } });
    await expect(made).rejects.toBeInstanceOf(McpServerConfigError);
    await expect(made).rejects.toThrow(
      'MCP server "web": tool "fetch_page" sends requests to its "url" argument, but the MCP server has no egress allowlist. ' +
        'Fix: list the hosts it may reach, as in serveMcp(tools, { egress: { allow: ["api.example.com"] } }), or toolwright mcp --egress api.example.com.',
    );
  });

  it.each([
    [
      "an allowlist entry over a public suffix",
      { egress: { allow: ["*.com"] } },
      'MCP server "web": egress.allow entry "*.com" is a wildcard over the public suffix "com"',
    ],
    [
      "an unknown approval tier",
      { approve: "sometimes" as never },
      'MCP server "web": approve must be "never", "destructive", "side-effects" or "always", got "sometimes".',
    ],
    [
      "an unknown trifecta action",
      { trifecta: "maybe" as never },
      'MCP server "web": trifecta must be "refuse", "approve" or "allow", got "maybe".',
    ],
  ])("refuses %s from createMcpServer", (_what, options, message) => {
    const make = () => createMcpServer([headline], { ...info, ...options });
    expect(make).toThrow(McpServerConfigError);
    expect(make).toThrow(message);
  });

  it("refuses them from serveMcpHttp before it listens", async () => {
    await expect(serveMcpHttp([headline], { ...info, approve: "sometimes" as never }, { port: 0 })).rejects.toThrow(
      /^MCP server "web": approve must be/,
    );
  });
});

describe("serveMcp({ approve }): approval tiers ask through elicitation", () => {
  const tools = () => [simple("delete_file", { destructive: true }), simple("list_files", { readOnly: true })];
  const reason = "delete_file is destructive and this MCP server approves destructive tools.";

  it("asks the person, saying why, and runs the call they approve", async () => {
    const asked: string[] = [];
    const client = await connect(await serve(tools(), { approve: "destructive" }), (message) => {
      asked.push(message);
      return { action: "accept", content: { approve: true } };
    });
    expect(text(await client.callTool({ name: "delete_file", arguments: {} }))).toBe("delete_file done");
    expect(text(await client.callTool({ name: "list_files", arguments: {} }))).toBe("list_files done");
    expect(asked).toEqual([
      `Allow the tool "delete_file" to run with these arguments?\n{}\nWhy you are asked: ${reason}`,
    ]);
  });

  it("does not run a call the person declines", async () => {
    const client = await connect(await serve(tools(), { approve: "destructive" }), () => ({
      action: "accept",
      content: { approve: false },
    }));
    const result = await client.callTool({ name: "delete_file", arguments: {} });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(
      'Not run: A person did not approve the call of tool "delete_file" (they answered no when asked). The call did not run.',
    );
  });

  it("refuses the call when the client cannot elicit, saying which rule asked", async () => {
    const client = await connect(await serve(tools(), { approve: "destructive" }));
    const result = await client.callTool({ name: "delete_file", arguments: {} });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(
      `Not run: tool "delete_file" needs a person's approval before it runs (${reason.slice(0, -1)}), and this MCP client cannot ask for it ` +
        '(it does not declare the "elicitation" capability). The call did not run. Use a client that supports elicitation, or tell the user this step needs their approval.',
    );
    expect(text(await client.callTool({ name: "list_files", arguments: {} }))).toBe("list_files done");
  });
});

describe("serveMcp({ trifecta }): one client session's calls are judged together", () => {
  const tools = () => [
    simple("read_inbox", { readOnly: true }, ["private_data"]),
    simple("browse", { readOnly: true }, ["untrusted_content"]),
    simple("send", {}, ["egress"]),
  ];

  it("refuses the call that would complete the trifecta in a session; another session starts clean", async () => {
    const handle = await serve(tools());
    const first = await connect(handle);
    expect(text(await first.callTool({ name: "read_inbox", arguments: {} }))).toBe("read_inbox done");
    expect(text(await first.callTool({ name: "browse", arguments: {} }))).toBe("browse done");
    const refused = await first.callTool({ name: "send", arguments: {} });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toBe(
      "Not run: calling send would give this session private data (read_inbox), untrusted content (browse) and a way to send data out (send). " +
        "Instructions hidden in untrusted content could then send the private data out, so this MCP server's policy refuses the call. " +
        "Do not retry it: finish the task without send, or tell the user which step they need to do themselves.",
    );
    const second = await connect(handle);
    expect(text(await second.callTool({ name: "send", arguments: {} }))).toBe("send done");
  });

  it('asks a person under trifecta: "approve", and lets every call run under "allow"', async () => {
    const asked: string[] = [];
    const approving = await connect(await serve(tools(), { trifecta: "approve" }), (message) => {
      asked.push(message);
      return { action: "accept", content: { approve: true } };
    });
    for (const name of ["read_inbox", "browse", "send"]) await approving.callTool({ name, arguments: {} });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(
      /Why you are asked: send would give this session private data \(read_inbox\), untrusted content \(browse\) and a way to send data out \(send\)/,
    );

    const allowing = await connect(await serve(tools(), { trifecta: "allow" }));
    for (const name of ["read_inbox", "browse"]) await allowing.callTool({ name, arguments: {} });
    expect(text(await allowing.callTool({ name: "send", arguments: {} }))).toBe("send done");
  });
});
