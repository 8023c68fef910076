import type Anthropic from "@anthropic-ai/sdk";
import type { GenerationConfig } from "@google/genai";
import type { ResponseCreateParams } from "openai/resources/responses/responses";
import type { ResponseFormatJSONSchema } from "openai/resources/shared";
import { afterEach, describe, expect, it } from "vitest";
import { Agent } from "../../src/agent/agent.js";
import type { Model } from "../../src/model/model.js";
import { anthropicCodec } from "../../src/providers/anthropic.js";
import { geminiCodec } from "../../src/providers/gemini.js";
import { HttpModel } from "../../src/providers/http-model.js";
import { openAiChatCodec } from "../../src/providers/openai-chat.js";
import { openAiResponsesCodec } from "../../src/providers/openai-responses.js";
import type { AgentStreamEvent, RunResult } from "../../src/runner/run-result.js";
import { compiledSchema, REPORT_SCHEMA, type Report, report } from "../output/compiled.js";
import { anthropicRenderer } from "./servers/anthropic-server.js";
import { geminiRenderer } from "./servers/gemini-server.js";
import { type Captured, type Loopback, nth, startLoopback, type WireRenderer } from "./servers/loopback.js";
import { openAiChatRenderer } from "./servers/openai-chat-server.js";
import { openAiResponsesRenderer } from "./servers/openai-responses-server.js";

// The typed final answer on every wire: each API's structured output field, field by field
// (typed by the official SDKs, so a body the SDK would not send fails to compile), the answer
// read back from the real response and stream shapes, and the feedback turn after a wrong one.

const GOOD = '{"city":"Paris","celsius":18.5,"at":"2026-03-01T09:30:00Z"}';
const ANSWER: Report = { city: "Paris", celsius: 18.5, at: new Date("2026-03-01T09:30:00Z") };
const AT = { type: "string", format: "date-time", description: "When it was measured." } as const;

/** OpenAI strict mode: every key required, the optional one nullable, the runtime's keyword gone. */
const STRICT_REPORT = {
  type: "object",
  properties: {
    city: { type: "string" },
    celsius: { type: "number" },
    at: AT,
    note: { type: ["string", "null"] },
  },
  required: ["city", "celsius", "at", "note"],
  additionalProperties: false,
};

/** The canonical schema as Anthropic's and Gemini's dialects send it: optional stays optional. */
const PLAIN_REPORT = {
  type: "object",
  properties: { city: { type: "string" }, celsius: { type: "number" }, at: AT, note: { type: "string" } },
  required: ["city", "celsius", "at"],
  additionalProperties: false,
};

const CHAT_FORMAT: ResponseFormatJSONSchema = {
  type: "json_schema",
  json_schema: { name: "Report", description: "A weather report for one city.", schema: STRICT_REPORT, strict: true },
};
const RESPONSES_TEXT: ResponseCreateParams["text"] = {
  format: {
    type: "json_schema",
    name: "Report",
    description: "A weather report for one city.",
    schema: STRICT_REPORT,
    strict: true,
  },
};
const ANTHROPIC_OUTPUT: Anthropic.OutputConfig = { format: { type: "json_schema", schema: PLAIN_REPORT } };
const GEMINI_CONFIG: GenerationConfig = { responseMimeType: "application/json", responseJsonSchema: PLAIN_REPORT };

interface Wire {
  readonly name: string;
  readonly renderer: () => WireRenderer;
  readonly model: (url: string) => Model;
  /** The structured output fields of a request body. */
  readonly fields: (body: Captured["body"]) => unknown;
  readonly expected: unknown;
  /** The last message of a request, where the feedback for a wrong answer goes. */
  readonly lastMessage: (body: Captured["body"]) => unknown;
  readonly feedback: (text: string) => unknown;
}

const WIRES: readonly Wire[] = [
  {
    name: "OpenAI Chat Completions",
    renderer: () => openAiChatRenderer(),
    model: (url) =>
      new HttpModel("openai:gpt-5-mini", openAiChatCodec({ model: "gpt-5-mini", baseURL: `${url}/v1`, apiKey: "k" })),
    fields: (body) => body.response_format,
    expected: CHAT_FORMAT,
    lastMessage: (body) => (body.messages as unknown[]).at(-1),
    feedback: (text) => ({ role: "user", content: text }),
  },
  {
    name: "OpenAI Responses",
    renderer: openAiResponsesRenderer,
    model: (url) =>
      new HttpModel(
        "openai:gpt-5-mini",
        openAiResponsesCodec({ model: "gpt-5-mini", baseURL: `${url}/v1`, apiKey: "k" }),
      ),
    fields: (body) => body.text,
    expected: RESPONSES_TEXT,
    lastMessage: (body) => (body.input as unknown[]).at(-1),
    feedback: (text) => ({ role: "user", content: text }),
  },
  {
    name: "Anthropic Messages",
    renderer: anthropicRenderer,
    model: (url) =>
      new HttpModel(
        "anthropic:claude-sonnet-4-5",
        anthropicCodec({ model: "claude-sonnet-4-5", baseURL: url, apiKey: "k" }),
      ),
    fields: (body) => body.output_config,
    expected: ANTHROPIC_OUTPUT,
    lastMessage: (body) => (body.messages as unknown[]).at(-1),
    feedback: (text) => ({ role: "user", content: text }),
  },
  {
    name: "Gemini",
    renderer: geminiRenderer,
    model: (url) =>
      new HttpModel("google:gemini-2.5-flash", geminiCodec({ model: "gemini-2.5-flash", baseURL: url, apiKey: "k" })),
    fields: (body) => body.generationConfig,
    expected: GEMINI_CONFIG,
    lastMessage: (body) => (body.contents as unknown[]).at(-1),
    feedback: (text) => ({ role: "user", parts: [{ text }] }),
  },
];

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function streamed<O>(events: AsyncGenerator<AgentStreamEvent<O>, RunResult<O>>) {
  const seen: AgentStreamEvent<O>[] = [];
  for await (const event of events) seen.push(event);
  const last = seen.at(-1);
  if (last?.type !== "run-finish") throw new Error("the stream did not finish");
  return { seen, result: last.result };
}

for (const wire of WIRES) {
  describe(`a typed answer over ${wire.name}`, () => {
    it("sends the answer's schema in the API's structured output field and reads the answer back (non-streamed)", async () => {
      server = await startLoopback(wire.renderer(), [{ text: GOOD }]);
      const agent = new Agent({ name: "weather", model: wire.model(server.url), output: report() });
      const result = await agent.run("Weather in Paris?");
      expect(result.output).toEqual(ANSWER);
      expect(wire.fields(nth(server, 0).body)).toEqual(wire.expected);
    });

    it("streams partial answers as the text arrives, then the checked answer", async () => {
      server = await startLoopback(wire.renderer(), [{ text: GOOD }]);
      const agent = new Agent({ name: "weather", model: wire.model(server.url), output: report() });
      const { seen, result } = await streamed(agent.stream("Weather in Paris?"));
      const partials = seen.flatMap((e) => (e.type === "partial-output" ? [e.output] : []));
      expect(partials.length).toBeGreaterThanOrEqual(2);
      expect(partials.at(-1)).toEqual({ city: "Paris", celsius: 18.5, at: "2026-03-01T09:30:00Z" });
      expect(result.output).toEqual(ANSWER);
      expect(wire.fields(nth(server, 0).body)).toEqual(wire.expected);
    });

    it("sends the feedback for a wrong answer as the next user turn, with the format again", async () => {
      server = await startLoopback(wire.renderer(), [{ text: '{"city":"Paris","celsius":"warm"}' }, { text: GOOD }]);
      const agent = new Agent({ name: "weather", model: wire.model(server.url), output: report() });
      const result = await agent.run("Weather in Paris?");
      expect(result.output).toEqual(ANSWER);
      const second = nth(server, 1).body;
      expect(wire.fields(second)).toEqual(wire.expected);
      const feedback = result.messages.at(-2);
      expect(feedback?.role).toBe("user");
      expect(feedback?.content).toContain('- /celsius: expected number, got "warm" (a string)');
      expect(wire.lastMessage(second)).toEqual(wire.feedback(feedback?.content ?? ""));
    });
  });
}

describe("a typed answer that is not an object", () => {
  it("travels as { answer } on every wire and comes back bare", async () => {
    const cities = () => compiledSchema<string[]>({ type: "array", items: { type: "string" } }, { name: "cities" });
    for (const wire of WIRES) {
      server = await startLoopback(wire.renderer(), [{ text: '{"answer":["Paris","Oslo"]}' }]);
      const result = await new Agent({ name: "w", model: wire.model(server.url), output: cities() }).run("Cities?");
      expect(result.output, wire.name).toEqual(["Paris", "Oslo"]);
      expect(JSON.stringify(wire.fields(nth(server, 0).body)), wire.name).toContain(
        '"properties":{"answer":{"type":"array","items":{"type":"string"}}}',
      );
      await server.close();
      server = undefined;
    }
  });
});

describe("a final-answer tool where the structured output field is not used (outputMode: tool)", () => {
  it("OpenAI-compatible server: final_answer among the tools, tool_choice required, no response_format", async () => {
    server = await startLoopback(openAiChatRenderer(), [
      { calls: [{ id: "call_a", name: "final_answer", args: JSON.parse(GOOD) }] },
    ]);
    const model = new HttpModel(
      "vllm:qwen3",
      openAiChatCodec({ model: "qwen3", baseURL: `${server.url}/v1`, kind: "vllm", quirks: { outputMode: "tool" } }),
    );
    expect(model.outputMode).toBe("tool");
    const result = await new Agent({ name: "w", model, output: report() }).run("Paris?");
    expect(result.output).toEqual(ANSWER);
    const body = nth(server, 0).body;
    expect(body.response_format).toBeUndefined();
    expect(body.tool_choice).toBe("required");
    expect((body.tools as { function: { name: string; parameters: unknown } }[])[0]?.function).toMatchObject({
      name: "final_answer",
      parameters: PLAIN_REPORT,
    });
  });

  it("Anthropic: final_answer forced with tool_choice any, no output_config", async () => {
    server = await startLoopback(anthropicRenderer(), [{ calls: [{ name: "final_answer", args: JSON.parse(GOOD) }] }]);
    const model = new HttpModel(
      "anthropic:claude-3-5-haiku",
      anthropicCodec({ model: "claude-3-5-haiku", baseURL: server.url, apiKey: "k", outputMode: "tool" }),
    );
    const result = await new Agent({ name: "w", model, output: report() }).run("Paris?");
    expect(result.output).toEqual(ANSWER);
    const body = nth(server, 0).body as unknown as Anthropic.MessageCreateParams;
    expect(body.output_config).toBeUndefined();
    expect(body.tool_choice).toEqual({ type: "any" });
    expect(body.tools?.map((t) => ("name" in t ? t.name : t.type))).toEqual(["final_answer"]);
  });
});

describe("the answer's check", () => {
  it("is the compiler's generated validator when the spec has one, on the value read from the wire", async () => {
    const seen: unknown[] = [];
    const validator = () => (value: unknown) => {
      seen.push(value);
      // The generated check of Report, in short: what the compiler writes is tested in the compiler's suites.
      return (
        typeof value === "object" && value !== null && typeof (value as { celsius?: unknown }).celsius === "number"
      );
    };
    const checked = () => compiledSchema<Report>(REPORT_SCHEMA, { validator });
    server = await startLoopback(openAiChatRenderer(), [
      { text: '{"city":"Paris","celsius":"warm","at":"2026-03-01T09:30:00Z"}' },
      { text: GOOD },
    ]);
    const model = WIRES[0]?.model(server.url) as Model;
    const result = await new Agent({ name: "w", model, output: checked() }).run("Paris?");
    expect(result.output).toEqual(ANSWER);
    expect(seen).toContainEqual({ city: "Paris", celsius: "warm", at: "2026-03-01T09:30:00Z" });
    expect(seen.at(-1)).toEqual(JSON.parse(GOOD));
  });
});

describe("an OpenAI refusal under structured output", () => {
  it("is read as the answer's text, refused with feedback, and the next answer taken (Chat and Responses, streamed and not)", async () => {
    const refusal = "I can't help with that.";
    for (const wire of WIRES.slice(0, 2)) {
      for (const stream of [false, true]) {
        server = await startLoopback(wire.renderer(), [{ refusal }, { text: GOOD }]);
        const agent = new Agent({ name: "w", model: wire.model(server.url), output: report() });
        const result = stream ? (await streamed(agent.stream("Paris?"))).result : await agent.run("Paris?");
        const label = `${wire.name}${stream ? ", streamed" : ""}`;
        expect(result.output, label).toEqual(ANSWER);
        expect(result.messages[1], label).toMatchObject({ role: "assistant", content: refusal });
        expect(result.messages[2]?.content, label).toContain(`the answer is not JSON: got "${refusal}"`);
        await server.close();
        server = undefined;
      }
    }
  });
});
