import { afterEach, describe, expect, it } from "vitest";
import { anthropicCodec } from "../../src/providers/anthropic.js";
import { HttpModel } from "../../src/providers/http-model.js";
import { runProviderConformance, TWO_TURNS } from "./conformance.js";
import { drive, TOOLS } from "./drive.js";
import { anthropicRenderer } from "./servers/anthropic-server.js";
import { type Loopback, nth, startLoopback } from "./servers/loopback.js";

const model = (url: string, options = {}, strict = false) =>
  new HttpModel(
    "anthropic:claude-sonnet-4-5",
    anthropicCodec({ model: "claude-sonnet-4-5", baseURL: url, apiKey: "sk-ant-test", strict }),
    options,
  );

runProviderConformance({
  name: "Anthropic Messages",
  makeServer: (script) => startLoopback(anthropicRenderer(), script),
  makeModel: model,
});

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("Anthropic Messages request bodies", () => {
  for (const stream of [false, true]) {
    it(`sends what the sheet gives, field by field (${stream ? "streamed" : "non-streamed"})`, async () => {
      server = await startLoopback(anthropicRenderer(), TWO_TURNS);
      const run = await drive(model(server.url), "Weather and time in Paris?", { stream });
      const first = nth(server, 0);
      expect(first.path).toBe("/v1/messages");
      expect(first.headers["x-api-key"]).toBe("sk-ant-test");
      expect(first.headers["anthropic-version"]).toBe("2023-06-01");
      expect(first.headers.authorization).toBeUndefined();
      expect(first.body).toEqual({
        model: "claude-sonnet-4-5",
        max_tokens: 4096,
        system: "Answer weather and time questions with the tools.",
        messages: [{ role: "user", content: "Weather and time in Paris?" }],
        tools: [
          {
            name: "get_time",
            description: "Current local time in a time zone.",
            input_schema: {
              type: "object",
              properties: { zone: { type: "string", description: "IANA zone, e.g. Europe/Paris." } },
              required: ["zone"],
              additionalProperties: false,
            },
          },
          {
            name: "get_weather",
            description: "Current weather for a city.",
            input_schema: {
              type: "object",
              properties: {
                city: { type: "string", minLength: 1 },
                units: { type: "string", enum: ["c", "f"], default: "c" },
              },
              required: ["city"],
              additionalProperties: false,
            },
          },
        ],
        tool_choice: { type: "auto" },
        ...(stream ? { stream: true } : {}),
      });
      // The assistant turn replayed verbatim; the next user message begins with one tool_result per tool_use.
      expect((nth(server, 1).body.messages as unknown[]).slice(1)).toEqual([
        {
          role: "assistant",
          content: [
            { type: "text", text: "Checking both." },
            { type: "tool_use", id: "call_w1", name: "get_weather", input: { city: "Paris", units: "c" } },
            { type: "tool_use", id: "call_t1", name: "get_time", input: { zone: "Europe/Paris" } },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "call_w1", content: '{"temp_c":16,"sky":"fog"}', is_error: false },
            { type: "tool_result", tool_use_id: "call_t1", content: "12:00", is_error: false },
          ],
        },
      ]);
      // Usage: total input = input + cache creation + cache read; cached = cache read.
      expect(run.responses[0]?.usage).toEqual({ inputTokens: 120, outputTokens: 30, cachedInputTokens: 100 });
    });
  }

  it("replays thinking blocks verbatim and sends strict tools with the strict subset", async () => {
    server = await startLoopback(anthropicRenderer(), [{ text: "done" }]);
    const thinking = { type: "thinking", thinking: "Paris is UTC+1.", signature: "sig-abc" };
    await model(server.url, {}, true).generate({
      messages: [
        { role: "user", content: "Time?" },
        {
          role: "assistant",
          content: "",
          toolCalls: [{ id: "toolu_1", name: "get_time", arguments: { zone: "Europe/Paris" } }],
          providerData: {
            anthropic: {
              content: [
                thinking,
                { type: "tool_use", id: "toolu_1", name: "get_time", input: { zone: "Europe/Paris" } },
              ],
            },
          },
        },
        { role: "tool", callId: "toolu_1", toolName: "get_time", content: "12:00", outcome: "ok", isError: false },
        { role: "user", content: "And the weather?" },
      ],
      tools: TOOLS.slice(1),
      toolChoice: { name: "get_weather" },
    });
    const body = nth(server, 0).body;
    expect((body.messages as { content: unknown }[])[1]?.content).toEqual([
      thinking,
      { type: "tool_use", id: "toolu_1", name: "get_time", input: { zone: "Europe/Paris" } },
    ]);
    expect((body.messages as unknown[])[2]).toEqual({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "toolu_1", content: "12:00", is_error: false },
        { type: "text", text: "And the weather?" },
      ],
    });
    expect(body.tool_choice).toEqual({ type: "tool", name: "get_weather" });
    expect(body.tools).toEqual([
      {
        name: "get_weather",
        description: "Current weather for a city.",
        strict: true,
        input_schema: {
          type: "object",
          properties: {
            city: { type: "string", description: "(minLength: 1)" },
            units: { type: "string", enum: ["c", "f"], description: '(default: "c")' },
          },
          required: ["city"],
          additionalProperties: false,
        },
      },
    ]);
  });
});

describe("Anthropic extended thinking, streamed", () => {
  it("keeps the thinking block with its signature and replays it verbatim on the next turn", async () => {
    const ev = (event: string, data: Record<string, unknown>) =>
      `event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`;
    const thinkingTurn = [
      ev("message_start", {
        message: {
          id: "m",
          type: "message",
          role: "assistant",
          content: [],
          usage: { input_tokens: 5, output_tokens: 1 },
        },
      }),
      ev("content_block_start", { index: 0, content_block: { type: "thinking", thinking: "", signature: "" } }),
      ev("content_block_delta", { index: 0, delta: { type: "thinking_delta", thinking: "Paris is " } }),
      ev("content_block_delta", { index: 0, delta: { type: "thinking_delta", thinking: "UTC+1." } }),
      ev("content_block_delta", { index: 0, delta: { type: "signature_delta", signature: "EqQBCgIYAh" } }),
      ev("content_block_stop", { index: 0 }),
      ev("content_block_start", {
        index: 1,
        content_block: { type: "tool_use", id: "toolu_9", name: "get_time", input: {} },
      }),
      ev("content_block_delta", { index: 1, delta: { type: "input_json_delta", partial_json: '{"zone":' } }),
      ev("content_block_delta", { index: 1, delta: { type: "input_json_delta", partial_json: '"Europe/Paris"}' } }),
      ev("content_block_stop", { index: 1 }),
      ev("message_delta", { delta: { stop_reason: "tool_use" }, usage: { output_tokens: 20 } }),
      ev("message_stop", {}),
    ].join("");
    const bodies: Record<string, unknown>[] = [];
    const { createServer } = await import("node:http");
    const http = createServer((req, res) => {
      let text = "";
      req.on("data", (c) => {
        text += c;
      });
      req.on("end", () => {
        bodies.push(JSON.parse(text) as Record<string, unknown>);
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.end(
          bodies.length === 1
            ? thinkingTurn
            : anthropicRenderer().sse({ text: "Noon." }, { method: "POST", path: "/", headers: {}, body: {} }).join(""),
        );
      });
    });
    await new Promise<void>((r) => http.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(http.address() as { port: number }).port}`;
    server = { url, requests: [], close: () => new Promise((r) => http.close(() => r())) };
    const run = await drive(model(url), "Time in Paris?", { stream: true });
    expect(run.executions).toEqual([{ name: "get_time", args: { zone: "Europe/Paris" } }]);
    const replayed = bodies[1]?.messages as { role: string; content: unknown }[] | undefined;
    expect(replayed?.[1]).toEqual({
      role: "assistant",
      content: [
        { type: "thinking", thinking: "Paris is UTC+1.", signature: "EqQBCgIYAh" },
        { type: "tool_use", id: "toolu_9", name: "get_time", input: { zone: "Europe/Paris" } },
      ],
    });
    expect(run.responses[0]?.usage).toEqual({ inputTokens: 5, outputTokens: 20, cachedInputTokens: 0 });
  });
});
