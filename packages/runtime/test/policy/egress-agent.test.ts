import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { Agent, AgentConfigError, type Tool, tool } from "../../src/index.js";
import { HttpModel } from "../../src/providers/http-model.js";
import { openAiChatCodec } from "../../src/providers/openai-chat.js";
import { FakeModel } from "../../src/testing/index.js";
import { type Loopback, nth, type ScriptStep, startLoopback } from "../providers/servers/loopback.js";
import { openAiChatRenderer } from "../providers/servers/openai-chat-server.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function model(script: readonly ScriptStep[]) {
  const server = await startLoopback(openAiChatRenderer(), script);
  closers.push(() => server.close());
  const codec = openAiChatCodec({ model: "gpt-5-mini", baseURL: `${server.url}/v1`, apiKey: "k" });
  return { server, model: new HttpModel("openai:gpt-5-mini", codec, { retry: { maxRetries: 0 } }) };
}

/** A web server on loopback: `/page` answers, `/away` redirects to `target`. */
async function website(target: string): Promise<{ base: string; hits: string[] }> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(req.url ?? "");
    if (req.url === "/away") res.writeHead(302, { location: target }).end();
    else res.writeHead(200, { "content-type": "text/plain" }).end("The page text.");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
}

/** The name, description and schema of a page-fetching tool. */
const PAGE = {
  name: "fetch_page",
  description: "Fetches a web page and returns its text.",
  parameters: {
    type: "object",
    properties: { url: { type: "string" } },
    required: ["url"],
    additionalProperties: false,
  },
};

/** A tool whose `url` argument is its egress, fetched through ctx.fetch. */
const fetchPage: Tool = tool({
  ...PAGE,
  egress: "url",
  readOnly: true,
  async execute(args, ctx) {
    const response = await ctx.fetch(String(args.url));
    return response.text();
  },
});

function toolMessage(server: Loopback, request: number, callId: string): unknown {
  const messages = nth(server, request).body.messages as { role: string; tool_call_id?: string; content?: unknown }[];
  return messages.find((m) => m.role === "tool" && m.tool_call_id === callId)?.content;
}

describe("egress allowlist in a run", () => {
  it("refuses a URL argument off the list before the tool runs, telling the model why", async () => {
    const site = await website("/page");
    const { server, model: m } = await model([
      { calls: [{ id: "c1", name: "fetch_page", args: { url: "http://169.254.169.254/latest/meta-data/" } }] },
      { calls: [{ id: "c2", name: "fetch_page", args: { url: `${site.base}/page` } }] },
      { text: "Done." },
    ]);
    const agent = new Agent({ name: "web", model: m, tools: [fetchPage], egress: { allow: [site.base] } });
    const result = await agent.run("Read the page.");
    expect(toolMessage(server, 1, "c1")).toBe(
      'Not run: fetch_page may not reach the "url" given: its host is the IP address 169.254.169.254, in link-local ' +
        "(cloud metadata services live here), which is not on the allowlist; " +
        `allowed: ${site.base}. Use a URL the allowlist allows, or tell the user this address cannot be reached.`,
    );
    expect(toolMessage(server, 2, "c2")).toBe("The page text.");
    expect(site.hits).toEqual(["/page"]);
    expect(result.output).toBe("Done.");
  });

  it("refuses a redirect off the list inside the tool's ctx.fetch, and the model reads the tool error", async () => {
    const site = await website("http://10.0.0.7/admin");
    const { server, model: m } = await model([
      { calls: [{ id: "c1", name: "fetch_page", args: { url: `${site.base}/away` } }] },
      { text: "Blocked." },
    ]);
    const agent = new Agent({ name: "web", model: m, tools: [fetchPage], egress: { allow: [site.base] } });
    await agent.run("Read it.");
    expect(toolMessage(server, 1, "c1")).toBe(
      `ctx.fetch ${site.base}/away redirected to http://10.0.0.7/admin, which was refused: its host is the IP address ` +
        `10.0.0.7, in a private network, which is not on the allowlist; allowed: ${site.base}.`,
    );
    expect(site.hits).toEqual(["/away"]);
  });

  it("checks the URL a beforeTool hook puts in place, as the model's own", async () => {
    const site = await website("/page");
    const model = FakeModel.script([
      { toolCalls: [{ id: "c1", name: "fetch_page", args: { url: `${site.base}/page` } }] },
      "ok",
    ]);
    const agent = new Agent({
      name: "web",
      model,
      tools: [fetchPage],
      egress: { allow: [site.base] },
      hooks: { beforeTool: () => ({ action: "replace_args", args: { url: "http://localhost:9/" } }) },
    });
    const result = await agent.run("Read it.");
    expect(result.steps[0]?.calls[0]).toMatchObject({
      outcome: "rejected",
      content: `Not run: fetch_page may not reach the "url" given: its host localhost is this machine, which is not on the allowlist; allowed: ${site.base}. Use a URL the allowlist allows, or tell the user this address cannot be reached.`,
    });
    expect(site.hits).toEqual([]);
  });

  it("refuses an egress tool on an agent with no allowlist, at configuration", () => {
    const agent = () => new Agent({ name: "web", model: "openai:gpt-5-mini", tools: [fetchPage] });
    expect(agent).toThrow(AgentConfigError);
    expect(agent).toThrow(
      'agent "web": tool "fetch_page" sends requests to its "url" argument, but the agent has no egress allowlist. Fix: list the hosts it may reach, as in new Agent({ egress: { allow: ["api.example.com"] } }).',
    );
  });

  it("refuses an egress argument the tool does not have", () => {
    const bad = tool({ ...PAGE, egress: "link", execute: () => "" });
    expect(() => new Agent({ name: "web", model: "openai:gpt-5-mini", tools: [bad], egress: { allow: [] } })).toThrow(
      'agent "web": tool "fetch_page" names "link" as its URL argument (egress), but has no such parameter; it has: url.',
    );
  });
});
