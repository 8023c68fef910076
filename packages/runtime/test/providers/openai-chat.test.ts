import { afterEach, describe, expect, it } from "vitest";
import { HttpModel } from "../../src/providers/http-model.js";
import { openAiChatCodec } from "../../src/providers/openai-chat.js";
import { runProviderConformance, TWO_TURNS } from "./conformance.js";
import { drive, TOOLS } from "./drive.js";
import { type Loopback, nth, startLoopback } from "./servers/loopback.js";
import { openAiChatRenderer } from "./servers/openai-chat-server.js";

runProviderConformance({
  name: "OpenAI Chat Completions",
  makeServer: (script) => startLoopback(openAiChatRenderer(), script),
  makeModel: (url, options) =>
    new HttpModel(
      "openai:gpt-5-mini",
      openAiChatCodec({ model: "gpt-5-mini", baseURL: `${url}/v1`, apiKey: "sk-test" }),
      options,
    ),
});

const TOOLS_ONE = TOOLS.slice(0, 1);
let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function model(url: string, kind?: "ollama" | "lmstudio" | "llamacpp" | "vllm") {
  return new HttpModel(
    kind ? `openai-compatible:${kind}` : "openai:gpt-5-mini",
    openAiChatCodec({
      model: "gpt-5-mini",
      baseURL: `${url}/v1`,
      ...(kind ? { kind } : { apiKey: "sk-test" }),
    }),
  );
}

describe("OpenAI Chat Completions request bodies", () => {
  it("sends what the sheet gives, field by field, on both turns", async () => {
    server = await startLoopback(openAiChatRenderer(), TWO_TURNS);
    const run = await drive(model(server.url), "Weather and time in Paris?", { stream: true });
    const [first] = server.requests;
    expect(first?.method).toBe("POST");
    expect(first?.path).toBe("/v1/chat/completions");
    expect(first?.headers.authorization).toBe("Bearer sk-test");
    expect(first?.headers["content-type"]).toBe("application/json");
    expect(Object.keys(first?.body ?? {}).sort()).toEqual(
      ["messages", "model", "parallel_tool_calls", "stream", "stream_options", "tool_choice", "tools"].sort(),
    );
    expect(first?.body).toMatchObject({
      model: "gpt-5-mini",
      tool_choice: "auto",
      parallel_tool_calls: false,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(first?.body.messages).toEqual([
      { role: "system", content: "Answer weather and time questions with the tools." },
      { role: "user", content: "Weather and time in Paris?" },
    ]);
    // Tools sorted by name; strict schemas: every key required, optional ones nullable, minLength described.
    expect(first?.body.tools).toEqual([
      {
        type: "function",
        function: {
          name: "get_time",
          description: "Current local time in a time zone.",
          parameters: {
            type: "object",
            properties: { zone: { type: "string", description: "IANA zone, e.g. Europe/Paris." } },
            required: ["zone"],
            additionalProperties: false,
          },
          strict: true,
        },
      },
      {
        type: "function",
        function: {
          name: "get_weather",
          description: "Current weather for a city.",
          parameters: {
            type: "object",
            properties: {
              city: { type: "string", description: "(minLength: 1)" },
              units: { type: ["string", "null"], enum: ["c", "f", null], description: '(default: "c")' },
            },
            required: ["city", "units"],
            additionalProperties: false,
          },
          strict: true,
        },
      },
    ]);
    // Second turn: the assistant message resent unchanged, then one tool message per call, in order.
    const calls = run.messages[1]?.role === "assistant" ? run.messages[1].toolCalls : [];
    expect((nth(server, 1).body.messages as unknown[]).slice(2)).toEqual([
      {
        role: "assistant",
        content: "Checking both.",
        tool_calls: [
          {
            id: "call_w1",
            type: "function",
            function: { name: "get_weather", arguments: '{"city":"Paris","units":"c"}' },
          },
          { id: "call_t1", type: "function", function: { name: "get_time", arguments: '{"zone":"Europe/Paris"}' } },
        ],
      },
      { role: "tool", tool_call_id: calls[0]?.id, content: '{"temp_c":16,"sky":"fog"}' },
      { role: "tool", tool_call_id: "call_t1", content: "12:00" },
    ]);
  });

  it("sends a named tool choice as the function object, and no stream fields when not streaming", async () => {
    server = await startLoopback(openAiChatRenderer(), [
      { calls: [{ id: "call_1", name: "get_weather", args: { city: "Oslo" } }] },
      { text: "ok" },
    ]);
    const messages = [{ role: "user" as const, content: "hi" }];
    await model(server.url).generate({ messages, tools: TOOLS, toolChoice: { name: "get_weather" } });
    const body = nth(server, 0).body;
    expect(body.tool_choice).toEqual({ type: "function", function: { name: "get_weather" } });
    expect(body).not.toHaveProperty("stream");
    expect(body).not.toHaveProperty("stream_options");
    // Without tools there is nothing to choose from: no tool_choice at all.
    await model(server.url).generate({ messages, tools: [], toolChoice: { name: "get_weather" } });
    expect(nth(server, 1).body).toEqual({ model: "gpt-5-mini", messages });
  });
});

describe("OpenAI-compatible local server quirks", () => {
  const cases = [
    ["Ollama: no index, arguments as objects, no ids", "ollama", { noIndex: true, argumentsAsObject: true }, true],
    ["Ollama 2026: index always 0", "ollama", { indexAlwaysZero: true }, false],
    ["LM Studio: empty names after the first fragment", "lmstudio", { emptyNamesAfterFirst: true }, false],
    [
      "gpt-4o / llama.cpp: finish_reason stop for calls, no [DONE]",
      "llamacpp",
      { finishStopForCalls: true, noDone: true },
      false,
    ],
  ] as const;
  for (const [title, kind, quirks, dropIds] of cases) {
    for (const stream of [true, false]) {
      it(`${title} (${stream ? "streamed" : "non-streamed"})`, async () => {
        const script = dropIds
          ? TWO_TURNS.map((t) => ({ ...t, calls: t.calls?.map((c) => ({ ...c, id: null })) }))
          : TWO_TURNS;
        server = await startLoopback(openAiChatRenderer(quirks), script);
        const run = await drive(model(server.url, kind), "Weather and time in Paris?", { stream });
        expect(run.executions).toEqual([
          { name: "get_weather", args: { city: "Paris", units: "c" } },
          { name: "get_time", args: { zone: "Europe/Paris" } },
        ]);
        expect(run.responses[0]?.finishReason).toBe("tool_calls");
        const ids = run.messages[1]?.role === "assistant" ? run.messages[1].toolCalls.map((c) => c.id) : [];
        expect(new Set(ids).size).toBe(2);
        if (dropIds) for (const id of ids) expect(id).toMatch(/^[a-zA-Z0-9]{9}$/);
        // Sent back as the server wants it: arguments as a string.
        const replay = (nth(server, 1).body.messages as { tool_calls?: { function: { arguments: unknown } }[] }[])[2];
        for (const c of replay?.tool_calls ?? []) expect(typeof c.function.arguments).toBe("string");
      });
    }
  }

  it("leaves tool_choice out for Ollama and sends a named choice to LM Studio as 'required'", async () => {
    server = await startLoopback(openAiChatRenderer(), [{ text: "a" }, { text: "b" }, { text: "c" }]);
    const req = {
      messages: [{ role: "user" as const, content: "hi" }],
      tools: TOOLS_ONE,
      toolChoice: { name: "get_time" },
    };
    await model(server.url, "ollama").generate(req);
    await model(server.url, "lmstudio").generate(req);
    await model(server.url, "llamacpp").generate(req);
    expect(server.requests[0]?.body.tool_choice).toBeUndefined();
    expect(server.requests[1]?.body.tool_choice).toBe("required");
    expect(server.requests[2]?.body).toMatchObject({
      tool_choice: { type: "function", function: { name: "get_time" } },
      parallel_tool_calls: true,
    });
    const tool = (nth(server, 0).body.tools as { function: Record<string, unknown> }[])[0];
    expect(tool?.function.strict).toBeUndefined();
    expect(tool?.function.parameters).toEqual(TOOLS_ONE[0]?.parameters);
  });
});

describe("a server whose streamed tool calls are broken", () => {
  it("with streamToolCalls: false, tool turns go unstreamed and are still told as stream events", async () => {
    server = await startLoopback(openAiChatRenderer(), TWO_TURNS);
    const model = new HttpModel(
      "lmstudio:qwen",
      openAiChatCodec({
        model: "qwen",
        baseURL: `${server.url}/v1`,
        kind: "lmstudio",
        quirks: { streamToolCalls: false },
      }),
    );
    const run = await drive(model, "Weather and time in Paris?", { stream: true });
    expect(nth(server, 0).body.stream).toBeUndefined();
    expect(run.executions).toHaveLength(2);
    const kinds = run.events.slice(0, 8).map((e) => e.type);
    expect(kinds).toEqual([
      "text-delta",
      "tool-call-start",
      "tool-call-delta",
      "tool-call-end",
      "tool-call-start",
      "tool-call-delta",
      "tool-call-end",
      "finish",
    ]);
  });
});
