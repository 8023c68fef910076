import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Agent } from "../../src/agent/agent.js";
import { ToolError } from "../../src/errors.js";
import { createMcpServer } from "../../src/mcp/index.js";
import { HttpModel } from "../../src/providers/http-model.js";
import { openAiChatCodec } from "../../src/providers/openai-chat.js";
import { ToolCallFailedError } from "../../src/runner/run-errors.js";
import { openTelemetry } from "../../src/telemetry/index.js";
import { tool } from "../../src/tools/tool.js";
import { type Loopback, type ScriptedTurn, type ScriptStep, startLoopback } from "../providers/servers/loopback.js";
import { openAiChatRenderer } from "../providers/servers/openai-chat-server.js";

let server: Loopback | undefined;
let exporter: InMemorySpanExporter;
let provider: BasicTracerProvider;

beforeEach(() => {
  exporter = new InMemorySpanExporter();
  provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await provider.shutdown();
});

const weather = tool({
  name: "get_weather",
  description: "Current weather for a city.",
  parameters: {
    type: "object",
    properties: { city: { type: "string" } },
    required: ["city"],
    additionalProperties: false,
  },
  readOnly: true,
  execute: (args) => {
    if (args.city === "Atlantis") throw new ToolError("no weather station in Atlantis");
    return `Foggy in ${String(args.city)}`;
  },
});

async function modelFor(script: readonly ScriptStep[]) {
  server = await startLoopback(openAiChatRenderer(), script);
  return new HttpModel(
    "openai:gpt-5-mini",
    openAiChatCodec({ model: "gpt-5-mini", baseURL: `${server.url}/v1`, apiKey: "k" }),
  );
}

const ONE_CALL: readonly ScriptedTurn[] = [
  {
    text: "Looking.",
    calls: [{ id: "call_1", name: "get_weather", args: { city: "Paris" } }],
    usage: { input: 50, output: 8 },
  },
  { text: "Foggy in Paris.", usage: { input: 80, output: 5 } },
];

function named(prefix: string): ReadableSpan[] {
  return exporter.getFinishedSpans().filter((s) => s.name.startsWith(prefix));
}

function only(prefix: string): ReadableSpan {
  const spans = named(prefix);
  expect(spans).toHaveLength(1);
  return spans[0] as ReadableSpan;
}

function parentOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}

describe("openTelemetry() spans of an agent run", () => {
  it("makes invoke_agent, one chat per turn and one execute_tool per call, with the GenAI attributes", async () => {
    const model = await modelFor(ONE_CALL);
    const observers = [openTelemetry({ tracer: provider.getTracer("test") })];
    const agent = new Agent({ name: "forecaster", model, tools: [weather], observers });
    const result = await agent.run("Weather in Paris?");

    const invoke = only("invoke_agent");
    expect(invoke.name).toBe("invoke_agent forecaster");
    expect(invoke.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "forecaster",
      "gen_ai.provider.name": "openai",
      "gen_ai.request.model": "gpt-5-mini",
      "gen_ai.conversation.id": result.runId,
      "gen_ai.usage.input_tokens": 130,
      "gen_ai.usage.output_tokens": 13,
    });

    const chats = named("chat ").sort(
      (a, b) => Number(a.attributes["gen_ai.usage.input_tokens"]) - Number(b.attributes["gen_ai.usage.input_tokens"]),
    );
    expect(chats.map((s) => s.name)).toEqual(["chat gpt-5-mini", "chat gpt-5-mini"]);
    expect(chats.map((s) => s.kind)).toEqual([SpanKind.CLIENT, SpanKind.CLIENT]);
    expect(chats.map((s) => s.attributes["gen_ai.response.finish_reasons"])).toEqual([["tool_calls"], ["stop"]]);
    expect(chats.map((s) => s.attributes["gen_ai.usage.output_tokens"])).toEqual([8, 5]);
    for (const chat of chats) expect(parentOf(chat)).toBe(invoke.spanContext().spanId);

    const call = only("execute_tool");
    expect(call.name).toBe("execute_tool get_weather");
    expect(call.attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "get_weather",
      "gen_ai.tool.call.id": "call_1",
      "gen_ai.tool.type": "function",
      "gen_ai.tool.description": "Current weather for a city.",
    });
    expect(parentOf(call)).toBe(invoke.spanContext().spanId);
    expect(call.status.code).not.toBe(SpanStatusCode.ERROR);
    // Content stays out unless asked for.
    const keys = exporter.getFinishedSpans().flatMap((s) => Object.keys(s.attributes));
    expect(keys.filter((k) => /messages|arguments|result|instructions/.test(k))).toEqual([]);
  });

  it("records as gen_ai.response.model the model each response names, not the one asked for", async () => {
    const model = await modelFor([
      { ...(ONE_CALL[0] as ScriptedTurn), model: "gpt-5-mini-2025-08-07" },
      { ...(ONE_CALL[1] as ScriptedTurn), model: "gpt-5-mini-2025-09-30" },
    ]);
    const agent = new Agent({
      name: "forecaster",
      model,
      tools: [weather],
      observers: [openTelemetry({ tracer: provider.getTracer("test") })],
    });
    await agent.run("Weather in Paris?");
    const chats = named("chat ").sort(
      (a, b) => Number(a.attributes["gen_ai.usage.input_tokens"]) - Number(b.attributes["gen_ai.usage.input_tokens"]),
    );
    expect(chats.map((s) => s.attributes["gen_ai.response.model"])).toEqual([
      "gpt-5-mini-2025-08-07",
      "gpt-5-mini-2025-09-30",
    ]);
    expect(chats.map((s) => s.attributes["gen_ai.request.model"])).toEqual(["gpt-5-mini", "gpt-5-mini"]);
  });

  it("records messages, arguments and results only with captureContent", async () => {
    const model = await modelFor(ONE_CALL);
    const observers = [openTelemetry({ tracer: provider.getTracer("test"), captureContent: true })];
    const agent = new Agent({ name: "forecaster", model, instructions: "Be brief.", tools: [weather], observers });
    await agent.run("Weather in Paris?");

    const call = only("execute_tool");
    expect(JSON.parse(String(call.attributes["gen_ai.tool.call.arguments"]))).toEqual({ city: "Paris" });
    expect(call.attributes["gen_ai.tool.call.result"]).toBe("Foggy in Paris");
    const [first] = named("chat ").filter((s) => s.attributes["gen_ai.usage.input_tokens"] === 50);
    const input = JSON.parse(String(first?.attributes["gen_ai.input.messages"]));
    expect(input).toEqual([{ role: "user", parts: [{ type: "text", content: "Weather in Paris?" }] }]);
    const output = JSON.parse(String(first?.attributes["gen_ai.output.messages"]));
    expect(output[0].parts).toContainEqual(
      expect.objectContaining({ type: "tool_call", id: "call_1", name: "get_weather" }),
    );
    expect(JSON.parse(String(first?.attributes["gen_ai.system_instructions"]))).toEqual([
      { type: "text", content: "Be brief." },
    ]);
  });

  it("marks a failed call with error.type and an error status", async () => {
    const model = await modelFor([
      { calls: [{ id: "call_x", name: "get_weather", args: { city: "Atlantis" } }], usage: { input: 10, output: 2 } },
      { text: "No data for Atlantis.", usage: { input: 20, output: 4 } },
    ]);
    const agent = new Agent({
      name: "forecaster",
      model,
      tools: [weather],
      toolRetry: { maxAttempts: 1 },
      observers: [openTelemetry({ tracer: provider.getTracer("test") })],
    });
    await agent.run("Weather in Atlantis?");
    const call = only("execute_tool");
    expect(call.attributes["error.type"]).toBe("tool_error");
    expect(call.status).toEqual({ code: SpanStatusCode.ERROR, message: "no weather station in Atlantis" });
  });

  it("nests a sub-agent's run under the parent's execute_tool span, the sub-agent having no observers of its own", async () => {
    // One server answers both agents, in the order their requests come: parent, child, parent.
    const model = await modelFor([
      { calls: [{ id: "call_ask", name: "ask_weather", args: { input: "Paris?" } }], usage: { input: 10, output: 3 } },
      { text: "Foggy.", usage: { input: 7, output: 2 } },
      { text: "The expert says foggy.", usage: { input: 30, output: 6 } },
    ]);
    const expert = new Agent({ name: "expert", model });
    const lead = new Agent({
      name: "lead",
      model,
      tools: [expert.asTool({ name: "ask_weather", description: "Ask the weather expert." })],
      observers: [openTelemetry({ tracer: provider.getTracer("test") })],
    });
    await lead.run("Weather?");

    const runs = named("invoke_agent");
    const parent = runs.find((s) => s.name === "invoke_agent lead");
    const child = runs.find((s) => s.name === "invoke_agent expert");
    const call = only("execute_tool");
    expect(call.attributes["gen_ai.tool.call.id"]).toBe("call_ask");
    expect(parentOf(call)).toBe(parent?.spanContext().spanId);
    expect(parentOf(child as ReadableSpan)).toBe(call.spanContext().spanId);
    expect(child?.spanContext().traceId).toBe(parent?.spanContext().traceId);
    const childChat = named("chat ").find((s) => s.attributes["gen_ai.usage.input_tokens"] === 7);
    expect(parentOf(childChat as ReadableSpan)).toBe(child?.spanContext().spanId);
  });

  it("exports one invoke_agent span per run when the parent and the sub-agent both carry openTelemetry()", async () => {
    const model = await modelFor([
      { calls: [{ id: "call_ask", name: "ask_weather", args: { input: "Paris?" } }], usage: { input: 10, output: 3 } },
      { text: "Foggy.", usage: { input: 7, output: 2 } },
      { text: "The expert says foggy.", usage: { input: 30, output: 6 } },
      { text: "Foggy still.", usage: { input: 7, output: 2 } },
    ]);
    const tracer = provider.getTracer("test");
    const expert = new Agent({ name: "expert", model, observers: [openTelemetry({ tracer })] });
    const lead = new Agent({
      name: "lead",
      model,
      tools: [expert.asTool({ name: "ask_weather", description: "Ask the weather expert." })],
      observers: [openTelemetry({ tracer })],
    });
    await lead.run("Weather?");

    expect(
      named("invoke_agent")
        .map((s) => s.name)
        .sort(),
    ).toEqual(["invoke_agent expert", "invoke_agent lead"]);
    expect(named("chat ")).toHaveLength(3);
    const parent = only("invoke_agent lead");
    const child = only("invoke_agent expert");
    const call = only("execute_tool");
    expect(parentOf(call)).toBe(parent.spanContext().spanId);
    expect(parentOf(child)).toBe(call.spanContext().spanId);
    expect(new Set(exporter.getFinishedSpans().map((s) => s.spanContext().traceId)).size).toBe(1);

    // Run alone, the sub-agent is a trace of its own.
    exporter.reset();
    await expert.run("Paris?");
    expect(named("invoke_agent").map((s) => [s.name, parentOf(s)])).toEqual([["invoke_agent expert", undefined]]);
  });
});

describe("openTelemetry() spans of paused and failed runs", () => {
  it("gives a resumed run its own invoke_agent span and each call one execute_tool span", async () => {
    const model = await modelFor([
      { calls: [{ id: "call_c", name: "cancel", args: { id: "A-1" } }], usage: { input: 10, output: 2 } },
      { text: "Cancelled.", usage: { input: 20, output: 3 } },
    ]);
    const cancel = tool({
      name: "cancel",
      description: "Cancel an order.",
      parameters: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
      needsApproval: true,
      execute: (args) => `cancelled ${String(args.id)}`,
    });
    const observers = [openTelemetry({ tracer: provider.getTracer("test") })];
    const agent = new Agent({ name: "desk", model, tools: [cancel], observers });
    const paused = await agent.run("Cancel A-1");
    expect(named("execute_tool")).toEqual([]);
    paused.state?.approve("call_c");
    await agent.run(paused.state as NonNullable<typeof paused.state>);

    const runs = named("invoke_agent");
    expect(runs.map((s) => s.attributes["toolwright.run.status"])).toEqual(["interrupted", "completed"]);
    expect(new Set(runs.map((s) => s.attributes["gen_ai.conversation.id"])).size).toBe(1);
    expect(named("chat ")).toHaveLength(2);
    const call = only("execute_tool");
    expect(parentOf(call)).toBe(runs[1]?.spanContext().spanId);
  });

  it("marks a run the provider failed, and the turn it failed in", async () => {
    const model = await modelFor([{ fault: "400" }]);
    const agent = new Agent({
      name: "forecaster",
      model,
      observers: [openTelemetry({ tracer: provider.getTracer("test") })],
    });
    await expect(agent.run("Weather?")).rejects.toThrow();
    const invoke = only("invoke_agent");
    expect(invoke.status.code).toBe(SpanStatusCode.ERROR);
    expect(invoke.attributes["error.type"]).toMatch(/Error$/);
    const chat = only("chat ");
    expect(chat.status.code).toBe(SpanStatusCode.ERROR);
    expect(parentOf(chat)).toBe(invoke.spanContext().spanId);
  });

  it("exports the failing call's execute_tool span with an error under an invoke_agent span that ends in error", async () => {
    const model = await modelFor([
      {
        calls: [
          { id: "call_ok", name: "get_weather", args: { city: "Paris" } },
          { id: "call_bad", name: "explode", args: {} },
        ],
        usage: { input: 10, output: 2 },
      },
    ]);
    const explode = tool({
      name: "explode",
      description: "Fails with a bug.",
      parameters: { type: "object", properties: {}, additionalProperties: false },
      execute: () => {
        throw new TypeError("cannot read properties of undefined");
      },
    });
    const agent = new Agent({
      name: "forecaster",
      model,
      tools: [weather, explode],
      onToolException: "fail",
      observers: [openTelemetry({ tracer: provider.getTracer("test") })],
    });
    await expect(agent.run("Weather?")).rejects.toThrow(ToolCallFailedError);

    const invoke = only("invoke_agent");
    expect(invoke.status.code).toBe(SpanStatusCode.ERROR);
    expect(invoke.attributes["error.type"]).toBe("ToolCallFailedError");
    const calls = named("execute_tool");
    const failed = calls.find((s) => s.attributes["gen_ai.tool.call.id"] === "call_bad");
    expect(failed?.name).toBe("execute_tool explode");
    expect(failed?.attributes).toMatchObject({ "gen_ai.tool.name": "explode", "error.type": "TypeError" });
    expect(failed?.status).toEqual({ code: SpanStatusCode.ERROR, message: "cannot read properties of undefined" });
    expect(parentOf(failed as ReadableSpan)).toBe(invoke.spanContext().spanId);
    // The call that finished in the same turn is exported too, as it ended.
    const ok = calls.find((s) => s.attributes["gen_ai.tool.call.id"] === "call_ok");
    expect(ok?.status.code).not.toBe(SpanStatusCode.ERROR);
    expect(parentOf(ok as ReadableSpan)).toBe(invoke.spanContext().spanId);
    expect(calls).toHaveLength(2);
    expect(only("chat ").status.code).not.toBe(SpanStatusCode.ERROR);
  });
});

describe("openTelemetry() spans of MCP-served calls", () => {
  it("makes a tools/call server span per call, with the MCP and GenAI attributes", async () => {
    const observers = [openTelemetry({ tracer: provider.getTracer("test"), captureContent: true })];
    const mcp = createMcpServer([weather], { name: "weather", version: "1.0.0", observers });
    const client = new Client({ name: "otel-test", version: "1.0.0" });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await Promise.all([mcp.connect(serverSide), client.connect(clientSide)]);
    try {
      await client.callTool({ name: "get_weather", arguments: { city: "Lyon" } });
      await client.callTool({ name: "get_weather", arguments: { city: "Atlantis" } });
    } finally {
      await client.close();
    }
    const spans = named("tools/call");
    expect(spans.map((s) => s.name)).toEqual(["tools/call get_weather", "tools/call get_weather"]);
    const [ok, failed] = spans as [ReadableSpan, ReadableSpan];
    expect(ok.kind).toBe(SpanKind.SERVER);
    expect(ok.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "get_weather",
      "gen_ai.tool.call.result": "Foggy in Lyon",
    });
    expect(typeof ok.attributes["mcp.session.id"]).toBe("string");
    expect(failed.attributes["error.type"]).toBe("tool_error");
    expect(failed.status.code).toBe(SpanStatusCode.ERROR);
  });

  it("gives each tools/call span the call's id and the JSON-RPC request's id, string or number", async () => {
    const seen: string[] = [];
    const echo = tool({
      name: "echo",
      description: "Echoes.",
      parameters: { type: "object", properties: {}, additionalProperties: false },
      execute: (_args, ctx) => {
        seen.push(ctx.callId);
        return "ok";
      },
    });
    const observers = [openTelemetry({ tracer: provider.getTracer("test") })];
    const mcp = createMcpServer([echo], { name: "echo", version: "1.0.0", observers });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const answered = new Map<unknown, unknown>();
    clientSide.onmessage = (message) => {
      if ("id" in message) answered.set(message.id, message);
    };
    await mcp.connect(serverSide);
    await clientSide.start();
    const request = async (id: string | number, method: string, params: Record<string, unknown>) => {
      await clientSide.send({ jsonrpc: "2.0", id, method, params });
      await expect.poll(() => answered.has(id)).toBe(true);
    };
    try {
      await request("init", "initialize", {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "raw", version: "1" },
      });
      await clientSide.send({ jsonrpc: "2.0", method: "notifications/initialized" });
      await request("req-7", "tools/call", { name: "echo", arguments: {} });
      await request(42, "tools/call", { name: "echo", arguments: {} });
    } finally {
      await clientSide.close();
    }
    const spans = named("tools/call");
    expect(spans.map((s) => s.attributes["jsonrpc.request.id"])).toEqual(["req-7", "42"]);
    const session = spans[0]?.attributes["mcp.session.id"];
    expect(spans.map((s) => s.attributes["gen_ai.tool.call.id"])).toEqual([`${session}:req-7`, `${session}:42`]);
    // The id the span carries is the one the tool was given as ctx.callId.
    expect(spans.map((s) => s.attributes["gen_ai.tool.call.id"])).toEqual(seen);
  });
});
