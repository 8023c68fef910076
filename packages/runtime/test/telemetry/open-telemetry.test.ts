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
});
