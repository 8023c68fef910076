import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, type JSONRPCMessage, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent } from "../../src/agent/agent.js";
import { ToolError } from "../../src/errors.js";
import { runTool } from "../../src/invoke/run-tool.js";
import { mcpTools } from "../../src/mcp/index.js";
import type { AgentStreamEvent } from "../../src/runner/run-result.js";
import { FakeModel } from "../../src/testing/index.js";
import type { Tool } from "../../src/tools/tool-types.js";
import { validateArguments } from "../../src/validation/arguments.js";
import { everythingTransport } from "./everything.js";

const transports: StdioClientTransport[] = [];
let tools: Tool[];

function named(name: string): Tool {
  const found = tools.find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name} among ${tools.map((t) => t.name).join(", ")}`);
  return found;
}

async function call(tool: Tool, raw: unknown, signal?: AbortSignal) {
  const check = validateArguments(tool, raw);
  if (!check.ok) throw check.error;
  return runTool(tool, check.args, signal ? { signal } : {});
}

/** An in-process server listing one tool that only runs as a task, without declaring the tasks capability. */
async function inconsistentServer(): Promise<{ client: Client; close: () => Promise<void> }> {
  const server = new Server({ name: "half-tasks", version: "1.0.0" }, { capabilities: { tools: {} } });
  const schema = { type: "object" as const, properties: {} };
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      {
        name: "research",
        description: "Runs as a task only.",
        inputSchema: schema,
        execution: { taskSupport: "required" },
      },
      { name: "ping_me", description: "An ordinary tool.", inputSchema: schema },
    ],
  }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "tasks-check", version: "1.0.0" });
  await client.connect(clientSide);
  return { client, close: () => client.close() };
}

/** Every message the client sent to the first server, in order: what that server received. */
const sent: JSONRPCMessage[] = [];
const onSent: (() => void)[] = [];

/** Resolves with the first message sent to the server that `match` accepts, waiting for it if needed. */
async function sentMessage(match: (message: JSONRPCMessage) => boolean): Promise<JSONRPCMessage> {
  for (;;) {
    const found = sent.find(match);
    if (found) return found;
    await new Promise<void>((resolve) => onSent.push(resolve));
  }
}

beforeAll(async () => {
  const transport = everythingTransport();
  transports.push(transport);
  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage) => {
    sent.push(message);
    for (const wake of onSent.splice(0)) wake();
    return send(message);
  };
  tools = await mcpTools(transport);
});

/** An in-process server whose `weather` tool answers structuredContent that breaks its own output schema. */
async function lyingServer(): Promise<{ client: Client; close: () => Promise<void> }> {
  const server = new Server({ name: "liar", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      {
        name: "weather",
        description: "Current weather of a city.",
        inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
        outputSchema: {
          type: "object",
          properties: { temperature: { type: "number" } },
          required: ["temperature"],
        },
      },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, () => ({
    content: [{ type: "text", text: "warm" }],
    structuredContent: { temperature: "warm" },
  }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "output-check", version: "1.0.0" });
  await client.connect(clientSide);
  return { client, close: () => client.close() };
}

afterAll(async () => {
  await Promise.all(transports.map((t) => t.close()));
});

describe("mcpTools against @modelcontextprotocol/server-everything (child process, stdio)", () => {
  it("turns every listed tool into a Tool with a portable name and the server's own schema", () => {
    expect(tools.length).toBeGreaterThan(5);
    for (const t of tools) expect(t.name).toMatch(/^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/);
    const sum = named("get-sum");
    expect(sum.description).toMatch(/sum/i);
    expect(sum.parameters).toMatchObject({
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    });
    // draft-07's $schema is dropped so the 2020-12 validator can load the schema.
    expect(sum.parameters).not.toHaveProperty("$schema");
  });

  it("marks tools with the server's annotations as flags", () => {
    expect(named("echo").flags).toEqual({ readOnly: true, destructive: false, idempotent: true, openWorld: false });
    expect(named("toggle-simulated-logging").flags).toEqual({
      readOnly: false,
      destructive: false,
      idempotent: false,
      openWorld: false,
    });
    expect(named("gzip-file-as-resource").flags).toMatchObject({ readOnly: false, idempotent: true, openWorld: true });
  });

  it("validates arguments against the server's schema before anything is sent", () => {
    const check = validateArguments(named("get-sum"), { a: 1, c: 2 });
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.error.message).toMatch(/"b"/);
  });

  it("calls a tool on the server and returns its text", async () => {
    expect((await call(named("echo"), { message: "hello" })).content).toBe("Echo: hello");
    expect((await call(named("get-sum"), { a: 2, b: 5 })).content).toMatch(/7/);
  });

  it("returns structuredContent, checked against the server's output schema", async () => {
    const tool = named("get-structured-content");
    expect(tool.outputSchema).toMatchObject({ type: "object", required: ["temperature", "conditions", "humidity"] });
    const result = await call(tool, { location: "Chicago" });
    expect(result.value).toMatchObject({ temperature: expect.any(Number), conditions: expect.any(String) });
  });

  it("refuses structuredContent that does not match the server's own output schema", async () => {
    const { client, close } = await lyingServer();
    try {
      const [weather] = await mcpTools(client);
      const failure = call(weather as Tool, { city: "Oslo" });
      await expect(failure).rejects.toBeInstanceOf(ToolError);
      await expect(failure).rejects.toThrow(
        /^MCP server liar failed on tool "weather": .*Structured content does not match the tool's output schema.*temperature/,
      );
    } finally {
      await close();
    }
  });

  it("cancels the remote call when ctx.signal aborts: the server is sent notifications/cancelled for it", async () => {
    const controller = new AbortController();
    const pending = call(named("trigger-long-running-operation"), { duration: 30, steps: 3 }, controller.signal);
    const request = await sentMessage(
      (m) => "method" in m && m.method === "tools/call" && m.params?.name === "trigger-long-running-operation",
    );
    controller.abort(new Error("stop now"));
    await expect(pending).rejects.toThrow(/stop now/);
    // Sent as the signal aborted, before the call settled.
    const cancelled = sent.find((m) => "method" in m && m.method === "notifications/cancelled");
    expect(cancelled).toMatchObject({
      params: { requestId: "id" in request ? request.id : -1, reason: "Error: stop now" },
    });
  });

  it("prefixes every name with an explicit prefix", async () => {
    const client = new Client({ name: "prefix-test", version: "1.0.0" });
    const transport = everythingTransport();
    transports.push(transport);
    await client.connect(transport);
    const prefixed = await mcpTools(client, { prefix: "ev", filter: (t) => t.name.startsWith("get-s") });
    expect(prefixed.map((t) => t.name).sort()).toEqual(["ev_get-structured-content", "ev_get-sum"]);
    // The server is still called by its own name.
    const sum = prefixed.find((t) => t.name === "ev_get-sum") as Tool;
    expect((await call(sum, { a: 1, b: 1 })).content).toMatch(/2/);
  });

  it("prefixes clashing names with the server's key when several servers are combined", async () => {
    const a = everythingTransport();
    const b = everythingTransport();
    transports.push(a, b);
    const combined = await mcpTools(
      { alpha: a, beta: b },
      { filter: (t) => t.name === "echo", needsApproval: (t) => t.annotations?.readOnlyHint !== true },
    );
    expect(combined.map((t) => t.name)).toEqual(["alpha_echo", "beta_echo"]);
    expect(combined.every((t) => t.needsApproval === false)).toBe(true);
  });

  it("sends a progressToken, and the server's progress reaches the agent's stream as tool-progress events", async () => {
    const model = FakeModel.script([
      { toolCalls: [{ name: "trigger-long-running-operation", args: { duration: 0.4, steps: 2 } }] },
      "done",
    ]);
    const agent = new Agent({ name: "progress", model, tools: [named("trigger-long-running-operation")] });
    const events: AgentStreamEvent[] = [];
    for await (const event of agent.stream("run it")) events.push(event);
    const request = await sentMessage(
      (m) =>
        "method" in m &&
        m.method === "tools/call" &&
        m.params?.name === "trigger-long-running-operation" &&
        (m.params?.arguments as { steps?: number } | undefined)?.steps === 2,
    );
    expect("params" in request && request.params?._meta?.progressToken).toBeDefined();
    const progress = events.filter((e) => e.type === "tool-progress");
    expect(progress.map(({ progress, total, toolName }) => ({ progress, total, toolName }))).toEqual([
      { progress: 1, total: 2, toolName: "trigger-long-running-operation" },
      { progress: 2, total: 2, toolName: "trigger-long-running-operation" },
    ]);
    const result = events.find((e) => e.type === "tool-result");
    expect(result?.type === "tool-result" && result.message.content).toMatch(/Long running operation completed/);
  });

  it("calls a tool the server runs only as a task (execution.taskSupport: required) as a task", async () => {
    const research = named("simulate-research-query");
    const result = await call(research, { topic: "tides" });
    expect(result.content).toMatch(/^# Research Report: tides/);
    // Created with tools/call and a task parameter, then polled and fetched.
    const created = await sentMessage(
      (m) => "method" in m && m.method === "tools/call" && m.params?.name === "simulate-research-query",
    );
    expect("params" in created && created.params?.task).toBeDefined();
    expect(sent.some((m) => "method" in m && m.method === "tasks/result")).toBe(true);
  });

  it("leaves out task-only tools of a server that does not take tasks, with a warning naming them", async () => {
    const { client, close } = await inconsistentServer();
    const warnings: Error[] = [];
    const listen = (warning: Error) => warnings.push(warning);
    process.on("warning", listen);
    try {
      const listed = await mcpTools(client);
      expect(listed.map((t) => t.name)).toEqual(["ping_me"]);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.map((w) => w.message)).toEqual([
        'MCP server half-tasks marks "research" as callable only as tasks (execution.taskSupport: "required") but does not declare the tasks capability, so those tools are left out.',
      ]);
    } finally {
      process.off("warning", listen);
      await close();
    }
  });

  it("turns the server's isError result into a ToolError carrying the server's message", async () => {
    // The schema allows any number; the server itself refuses -1 and answers isError.
    const failure = call(named("get-resource-reference"), { resourceType: "Text", resourceId: -1 });
    await expect(failure).rejects.toBeInstanceOf(ToolError);
    await expect(failure).rejects.toThrow(/Invalid resourceId: -1/);
  });
});
