import { afterEach, describe, expect, it } from "vitest";
import { HttpModel } from "../../src/providers/http-model.js";
import { openAiResponsesCodec } from "../../src/providers/openai-responses.js";
import { runProviderConformance, TWO_TURNS } from "./conformance.js";
import { drive } from "./drive.js";
import { type Loopback, nth, startLoopback } from "./servers/loopback.js";
import { openAiResponsesRenderer } from "./servers/openai-responses-server.js";

const model = (url: string, options = {}) =>
  new HttpModel(
    "openai:gpt-5-mini",
    openAiResponsesCodec({ model: "gpt-5-mini", baseURL: `${url}/v1`, apiKey: "sk-test" }),
    options,
  );

runProviderConformance({
  name: "OpenAI Responses",
  makeServer: (script) => startLoopback(openAiResponsesRenderer(), script),
  makeModel: model,
});

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("OpenAI Responses request bodies", () => {
  for (const stream of [false, true]) {
    it(`sends what the sheet gives and echoes output items (${stream ? "streamed" : "non-streamed"})`, async () => {
      server = await startLoopback(openAiResponsesRenderer(), TWO_TURNS);
      await drive(model(server.url), "Weather and time in Paris?", { stream });
      const first = nth(server, 0);
      expect(first.path).toBe("/v1/responses");
      expect(first.headers.authorization).toBe("Bearer sk-test");
      const tools = first.body.tools as Record<string, unknown>[];
      expect(tools.map((t) => [t.type, t.name, t.strict])).toEqual([
        ["function", "get_time", true],
        ["function", "get_weather", true],
      ]);
      expect(tools[1]?.parameters).toEqual({
        type: "object",
        properties: {
          city: { type: "string", description: "(minLength: 1)" },
          units: { type: ["string", "null"], enum: ["c", "f", null], description: '(default: "c")' },
        },
        required: ["city", "units"],
        additionalProperties: false,
      });
      expect(first.body).toMatchObject({
        model: "gpt-5-mini",
        instructions: "Answer weather and time questions with the tools.",
        input: [{ role: "user", content: "Weather and time in Paris?" }],
        tool_choice: "auto",
        parallel_tool_calls: false,
      });
      expect(first.body.stream).toBe(stream ? true : undefined);
      // Turn two: the earlier output items verbatim (reasoning included), then one function_call_output per call.
      const input = nth(server, 1).body.input as Record<string, unknown>[];
      expect(input.map((i) => i.type ?? i.role)).toEqual([
        "user",
        "reasoning",
        "message",
        "function_call",
        "function_call",
        "function_call_output",
        "function_call_output",
      ]);
      expect(input[3]).toMatchObject({ type: "function_call", call_id: "call_w1", name: "get_weather" });
      expect(input.slice(5)).toEqual([
        { type: "function_call_output", call_id: "call_w1", output: '{"temp_c":16,"sky":"fog"}' },
        { type: "function_call_output", call_id: "call_t1", output: "12:00" },
      ]);
    });
  }
});
