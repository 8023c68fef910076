import { afterEach, describe, expect, it } from "vitest";
import { geminiCodec } from "../../src/providers/gemini.js";
import { HttpModel } from "../../src/providers/http-model.js";
import { runProviderConformance, TWO_TURNS } from "./conformance.js";
import { drive, TOOLS } from "./drive.js";
import { geminiRenderer } from "./servers/gemini-server.js";
import { type Loopback, nth, startLoopback } from "./servers/loopback.js";

const model = (url: string, options = {}, schemaField?: "parameters") =>
  new HttpModel(
    "google:gemini-2.5-flash",
    geminiCodec({
      model: "gemini-2.5-flash",
      baseURL: url,
      apiKey: "gm-test",
      ...(schemaField ? { schemaField } : {}),
    }),
    options,
  );

runProviderConformance({
  name: "Gemini",
  makeServer: (script) => startLoopback(geminiRenderer(), script),
  makeModel: model,
});

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("Gemini request bodies", () => {
  for (const stream of [false, true]) {
    it(`sends what the sheet gives and echoes thought signatures (${stream ? "streamed" : "non-streamed"})`, async () => {
      server = await startLoopback(geminiRenderer(), TWO_TURNS);
      const run = await drive(model(server.url), "Weather and time in Paris?", { stream });
      const first = nth(server, 0);
      expect(first.path).toBe(
        stream
          ? "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"
          : "/v1beta/models/gemini-2.5-flash:generateContent",
      );
      expect(first.headers["x-goog-api-key"]).toBe("gm-test");
      expect(first.body).toEqual({
        contents: [{ role: "user", parts: [{ text: "Weather and time in Paris?" }] }],
        systemInstruction: { parts: [{ text: "Answer weather and time questions with the tools." }] },
        tools: [
          {
            functionDeclarations: [
              {
                name: "get_time",
                description: "Current local time in a time zone.",
                parametersJsonSchema: {
                  type: "object",
                  properties: { zone: { type: "string", description: "IANA zone, e.g. Europe/Paris." } },
                  required: ["zone"],
                  additionalProperties: false,
                },
              },
              {
                name: "get_weather",
                description: "Current weather for a city.",
                parametersJsonSchema: {
                  type: "object",
                  properties: {
                    city: { type: "string", description: "(minLength: 1)" },
                    units: { type: "string", enum: ["c", "f"], description: '(default: "c")' },
                  },
                  required: ["city"],
                  additionalProperties: false,
                },
              },
            ],
          },
        ],
        toolConfig: { functionCallingConfig: { mode: "AUTO" } },
      });
      expect((nth(server, 1).body.contents as unknown[]).slice(1)).toEqual([
        {
          role: "model",
          parts: [
            { text: "Checking both." },
            {
              functionCall: { id: "call_w1", name: "get_weather", args: { city: "Paris", units: "c" } },
              thoughtSignature: "sig-get_weather",
            },
            { functionCall: { id: "call_t1", name: "get_time", args: { zone: "Europe/Paris" } } },
          ],
        },
        {
          role: "user",
          parts: [
            {
              functionResponse: {
                id: "call_w1",
                name: "get_weather",
                response: { output: { temp_c: 16, sky: "fog" } },
              },
            },
            { functionResponse: { id: "call_t1", name: "get_time", response: { output: "12:00" } } },
          ],
        },
      ]);
      // Thoughts count as output; cachedContentTokenCount is the cached part of the prompt.
      expect(run.responses[0]?.usage).toEqual({ inputTokens: 120, outputTokens: 30, cachedInputTokens: 100 });
    });
  }

  it("makes up ids Gemini did not send and never sends them back; errors go under 'error'", async () => {
    const noIds = TWO_TURNS.map((t) => ({ ...t, calls: t.calls?.map((c) => ({ ...c, id: null })) }));
    server = await startLoopback(geminiRenderer(), noIds);
    const run = await drive(model(server.url), "Weather?", { stream: true });
    const calls = run.messages[1]?.role === "assistant" ? run.messages[1].toolCalls : [];
    expect(new Set(calls.map((c) => c.id)).size).toBe(2);
    const replies = (nth(server, 1).body.contents as { parts: { functionResponse?: Record<string, unknown> }[] }[])[2];
    expect(replies?.parts.map((p) => p.functionResponse?.id)).toEqual([undefined, undefined]);

    server = await startLoopback(geminiRenderer(), [{ text: "ok" }]);
    await model(server.url).generate({
      messages: [
        { role: "user", content: "Weather?" },
        { role: "assistant", content: "", toolCalls: [{ id: "x1", name: "get_weather", arguments: '{"city":"Oz"}' }] },
        {
          role: "tool",
          callId: "x1",
          toolName: "get_weather",
          content: "unknown city Oz",
          outcome: "tool_error",
          isError: true,
        },
      ],
      tools: [],
      toolChoice: { name: "get_weather" },
    });
    expect((nth(server, 0).body.contents as unknown[]).slice(1)).toEqual([
      { role: "model", parts: [{ functionCall: { id: "x1", name: "get_weather", args: { city: "Oz" } } }] },
      {
        role: "user",
        parts: [{ functionResponse: { id: "x1", name: "get_weather", response: { error: "unknown city Oz" } } }],
      },
    ]);
  });

  it("sends the legacy OpenAPI-subset `parameters` when asked", async () => {
    server = await startLoopback(geminiRenderer(), [{ text: "ok" }]);
    await model(server.url, {}, "parameters").generate({
      messages: [{ role: "user", content: "hi" }],
      tools: TOOLS,
      toolChoice: { name: "get_time" },
    });
    const body = nth(server, 0).body;
    expect(body.toolConfig).toEqual({ functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["get_time"] } });
    const decls = (body.tools as { functionDeclarations: Record<string, unknown>[] }[])[0]?.functionDeclarations;
    expect(decls?.[1]).toEqual({
      name: "get_weather",
      description: "Current weather for a city.",
      parameters: {
        type: "OBJECT",
        properties: {
          city: { type: "STRING", minLength: "1" },
          units: { type: "STRING", enum: ["c", "f"], default: "c" },
        },
        required: ["city"],
      },
    });
  });
});
