import { connect, createServer, type Server, type Socket } from "node:net";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent } from "../../src/agent/agent.js";
import { ToolArgumentError } from "../../src/errors.js";
import type { ToolContext } from "../../src/invoke/context.js";
import { type McpServerHandle, mcpTools, serveMcp } from "../../src/mcp/index.js";
import type { ToolResultMessage } from "../../src/model/messages.js";
import { FakeModel } from "../../src/testing/index.js";
import type { InvokableTool, Tool, ToolArgs } from "../../src/tools/tool-types.js";

/**
 * A loopback TCP proxy in front of the MCP endpoint that can drop the connection carrying
 * the next `tools/call`, before the server sees it: a lost connection, as a network gives one.
 */
interface CuttingProxy {
  readonly port: number;
  /** Drops the connection of the next `count` tool calls. */
  cutNextCalls(count: number): void;
  /** How many connections were dropped. */
  readonly cuts: number;
  close(): Promise<void>;
}

async function cuttingProxy(target: () => number): Promise<CuttingProxy> {
  let pending = 0;
  let cuts = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(target(), "127.0.0.1");
    sockets.add(client).add(upstream);
    let seen = "";
    client.on("data", (chunk: Buffer) => {
      // Keep a short tail, so a method name split across two chunks is still found.
      seen = (seen + chunk.toString("latin1")).slice(-4096);
      if (pending > 0 && seen.includes('"tools/call"')) {
        pending--;
        cuts++;
        client.destroy();
        upstream.destroy();
        return;
      }
      upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => client.write(chunk));
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
    client.on("error", () => {});
    upstream.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the proxy has no port");
  return {
    port: address.port,
    cutNextCalls(count) {
      pending = count;
    },
    get cuts() {
      return cuts;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

const ran: Record<string, number> = {};
let stallFirst = false;

function counted(name: string, flags: Tool["flags"]): Tool {
  return {
    name,
    description: `Counts its calls (${name}).`,
    parameters: { type: "object", properties: {}, additionalProperties: false },
    flags,
    execute(_args: ToolArgs, ctx: ToolContext<never>) {
      ran[name] = (ran[name] ?? 0) + 1;
      if (stallFirst) {
        stallFirst = false;
        // Never answers on its own: the client's request timeout ends it.
        return new Promise((_, reject) => ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason)));
      }
      return `${name} ran`;
    },
  };
}

let proxy: CuttingProxy;
let handle: McpServerHandle;
const transports: StreamableHTTPClientTransport[] = [];
let remote: InvokableTool[];
/** The same tools through a client with a short protocol-level time limit, so a stalled call ends in a RequestTimeout. */
let hasty: InvokableTool[];

function named(name: string): InvokableTool {
  const found = remote.find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}

beforeAll(async () => {
  let port = 0;
  proxy = await cuttingProxy(() => port);
  handle = await serveMcp([counted("lookup", { readOnly: true }), counted("charge", { destructive: true })], {
    name: "flaky-net",
    version: "1.0.0",
    transport: { http: { port: 0, allowedHosts: [`127.0.0.1:${proxy.port}`] } },
  });
  port = Number(handle.url?.port);
  const connect = () => {
    const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${proxy.port}/mcp`));
    transports.push(transport);
    return transport;
  };
  remote = await mcpTools(connect());
  hasty = await mcpTools(connect(), { requestTimeoutMs: 1_500 });
});

afterAll(async () => {
  await Promise.all(transports.map((t) => t.close()));
  await handle.close();
  await proxy.close();
});

/** Runs one call of `toolName` through an agent; returns the tool result the model read. */
async function callThroughAgent(toolName: string, tools = remote): Promise<ToolResultMessage> {
  const model = FakeModel.script([{ toolCalls: [{ name: toolName, args: {} }] }, "done"]);
  const agent = new Agent({ name: "net", model, tools, toolRetry: { initialBackoffMs: 1 } });
  await agent.run("go");
  const result = model.requests[1]?.messages.find((m): m is ToolResultMessage => m.role === "tool");
  if (!result) throw new Error("the model never read a tool result");
  return result;
}

describe("remote MCP tools on a connection that fails", () => {
  it("retry a read-only tool after the connection is lost, as the README promises", async () => {
    ran.lookup = 0;
    proxy.cutNextCalls(1);
    const result = await callThroughAgent("lookup");
    expect(proxy.cuts).toBe(1);
    expect(result.outcome).toBe("ok");
    expect(result.content).toBe("lookup ran");
    expect(ran.lookup).toBe(1);
  });

  it("retry a read-only tool after a protocol timeout", async () => {
    ran.lookup = 0;
    stallFirst = true;
    const result = await callThroughAgent("lookup", hasty);
    expect(result.outcome).toBe("ok");
    expect(ran.lookup).toBe(2);
  });

  it("never retry a destructive tool: the model reads which server and tool lost the connection", async () => {
    ran.charge = 0;
    const before = proxy.cuts;
    proxy.cutNextCalls(1);
    const result = await callThroughAgent("charge");
    expect(proxy.cuts).toBe(before + 1);
    expect(result.outcome).toBe("tool_error");
    expect(result.content).toMatch(/^MCP server flaky-net failed on tool "charge": /);
    expect(ran.charge).toBe(0);
  });
});

describe("a remote MCP tool's invoke", () => {
  it("validates, calls the server and serializes, as a tool() tool's invoke does", async () => {
    ran.lookup = 0;
    const lookup = named("lookup");
    expect((await lookup.invoke({})).content).toBe("lookup ran");
    await expect(lookup.invoke({ extra: 1 })).rejects.toBeInstanceOf(ToolArgumentError);
    expect(ran.lookup).toBe(1);
  });
});
