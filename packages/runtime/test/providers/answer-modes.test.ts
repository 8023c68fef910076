import type Anthropic from "@anthropic-ai/sdk";
import type { ToolConfig } from "@google/genai";
import type { ChatCompletionCreateParams } from "openai/resources/chat/completions";
import type { ResponseFormatJSONSchema } from "openai/resources/shared";
import { afterEach, describe, expect, it } from "vitest";
import { Agent } from "../../src/agent/agent.js";
import type { Model } from "../../src/model/model.js";
import { anthropicCodec } from "../../src/providers/anthropic.js";
import { geminiCodec } from "../../src/providers/gemini.js";
import { HttpModel } from "../../src/providers/http-model.js";
import { openAiChatCodec } from "../../src/providers/openai-chat.js";
import { openAiResponsesCodec } from "../../src/providers/openai-responses.js";
import { tool } from "../../src/tools/tool.js";
import { compiledSchema, type Report, report } from "../output/compiled.js";
import { anthropicRenderer } from "./servers/anthropic-server.js";
import { geminiRenderer } from "./servers/gemini-server.js";
import {
  type Captured,
  type Loopback,
  nth,
  type ScriptedTurn,
  startLoopback,
  type WireRenderer,
} from "./servers/loopback.js";
import { openAiChatRenderer } from "./servers/openai-chat-server.js";
import { openAiResponsesRenderer } from "./servers/openai-responses-server.js";

// Which way a typed answer travels on each wire: the API's structured output field where the
// API (and the model) takes the schema, else the final_answer tool forced with the API's tool
// choice; either way over real HTTP, streamed and not, and read back into result.output.

const ARGS = { city: "Paris", celsius: 18.5, at: "2026-03-01T09:30:00Z" };
const ANSWER: Report = { city: "Paris", celsius: 18.5, at: new Date("2026-03-01T09:30:00Z") };

/** Prices by currency code: a Record, which no strict subset can say (its keys are open). */
type Prices = Record<string, number>;
const PRICES_SCHEMA = { type: "object", additionalProperties: { type: "number" } };
const prices = () => compiledSchema<Prices>(PRICES_SCHEMA, { name: "Prices" });

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const anthropic = (model: string) => (url: string) =>
  new HttpModel(`anthropic:${model}`, anthropicCodec({ model, baseURL: url, apiKey: "k" }));

interface ToolWire {
  readonly name: string;
  readonly renderer: () => WireRenderer;
  readonly model: (url: string) => Model;
  /** The structured output field of a request, which tool mode leaves out. */
  readonly field: (body: Captured["body"]) => unknown;
  /** The tool choice that forces a call, as this API says it. */
  readonly forced: (body: Captured["body"]) => unknown;
  readonly expectedChoice: unknown;
  /** Names of the tools a request offers. */
  readonly toolNames: (body: Captured["body"]) => string[];
  /** Fewest partial answers its stream gives (Gemini streams a call whole). */
  readonly partials: number;
}

const TOOL_WIRES: readonly ToolWire[] = [
  {
    name: "an OpenAI-compatible server told to (quirks.outputMode)",
    renderer: () => openAiChatRenderer(),
    model: (url) =>
      new HttpModel(
        "vllm:qwen3",
        openAiChatCodec({ model: "qwen3", baseURL: `${url}/v1`, kind: "vllm", quirks: { outputMode: "tool" } }),
      ),
    field: (body) => body.response_format,
    forced: (body) => (body as unknown as ChatCompletionCreateParams).tool_choice,
    expectedChoice: "required",
    toolNames: (body) =>
      ((body as unknown as ChatCompletionCreateParams).tools ?? []).map((t) =>
        t.type === "function" ? t.function.name : "",
      ),
    partials: 2,
  },
  {
    name: "Anthropic, a model before structured outputs (claude-3-5-haiku, by default)",
    renderer: anthropicRenderer,
    model: anthropic("claude-3-5-haiku-latest"),
    field: (body) => (body as unknown as Anthropic.MessageCreateParams).output_config,
    forced: (body) => (body as unknown as Anthropic.MessageCreateParams).tool_choice,
    expectedChoice: { type: "any" } satisfies Anthropic.ToolChoice,
    toolNames: (body) =>
      ((body as unknown as Anthropic.MessageCreateParams).tools ?? []).map((t) => ("name" in t ? t.name : "")),
    partials: 2,
  },
  {
    name: "Gemini told to (outputMode)",
    renderer: geminiRenderer,
    model: (url) =>
      new HttpModel(
        "google:gemini-2.5-flash",
        geminiCodec({ model: "gemini-2.5-flash", baseURL: url, apiKey: "k", outputMode: "tool" }),
      ),
    field: (body) => (body.generationConfig as Record<string, unknown> | undefined)?.responseJsonSchema,
    forced: (body) => body.toolConfig,
    expectedChoice: { functionCallingConfig: { mode: "ANY" } } as ToolConfig,
    toolNames: (body) =>
      ((body.tools as { functionDeclarations: { name: string }[] }[] | undefined) ?? []).flatMap((t) =>
        t.functionDeclarations.map((d) => d.name),
      ),
    partials: 1,
  },
];

const ANSWER_CALL: ScriptedTurn = { calls: [{ id: "call_a", name: "final_answer", args: ARGS }] };

for (const wire of TOOL_WIRES) {
  describe(`the final-answer tool over ${wire.name}`, () => {
    it("offers final_answer, forces a tool call, sends no structured output field, and takes the call as the answer", async () => {
      server = await startLoopback(wire.renderer(), [ANSWER_CALL]);
      const model = wire.model(server.url);
      expect(model.outputModeFor?.({ name: "Report", schema: report().jsonSchema }, []) ?? model.outputMode).toBe(
        "tool",
      );
      const result = await new Agent({ name: "w", model, output: report() }).run("Paris?");
      expect(result.output).toEqual(ANSWER);
      const body = nth(server, 0).body;
      expect(wire.field(body)).toBeUndefined();
      expect(wire.forced(body)).toEqual(wire.expectedChoice);
      expect(wire.toolNames(body)).toEqual(["final_answer"]);
    });

    it("streams the call's arguments as partial answers, then the checked answer", async () => {
      server = await startLoopback(wire.renderer(), [ANSWER_CALL]);
      const agent = new Agent({ name: "w", model: wire.model(server.url), output: report() });
      const partials: unknown[] = [];
      let output: Report | undefined;
      for await (const event of agent.stream("Paris?")) {
        if (event.type === "partial-output") partials.push(event.output);
        if (event.type === "run-finish") output = event.result.output;
      }
      expect(partials.length).toBeGreaterThanOrEqual(wire.partials);
      expect(partials.at(-1)).toEqual(ARGS);
      expect(output).toEqual(ANSWER);
    });

    it("sends a wrong call's problems back as the tool's result and takes the corrected call", async () => {
      server = await startLoopback(wire.renderer(), [
        { calls: [{ id: "call_a", name: "final_answer", args: { ...ARGS, celsius: "warm" } }] },
        { calls: [{ id: "call_b", name: "final_answer", args: ARGS }] },
      ]);
      const result = await new Agent({ name: "w", model: wire.model(server.url), output: report() }).run("Paris?");
      expect(result.output).toEqual(ANSWER);
      expect(JSON.stringify(nth(server, 1).body)).toContain('/celsius: expected number, got \\"warm\\" (a string)');
    });
  });
}

describe("Anthropic: output_config where the model and the schema take it, else the final-answer tool", () => {
  it("defaults to output_config for models with structured outputs and to the tool for the models before them", () => {
    const modeOf = (model: string) => anthropic(model)("http://127.0.0.1:9").outputMode;
    for (const model of ["claude-sonnet-4-5", "claude-opus-4-1-20250805", "claude-haiku-4-5", "claude-opus-4-7"])
      expect(modeOf(model), model).toBe("native");
    for (const model of [
      "claude-3-5-haiku-latest",
      "claude-3-7-sonnet-20250219",
      "claude-sonnet-4-0",
      "claude-sonnet-4-20250514",
      "claude-opus-4-20250514",
    ])
      expect(modeOf(model), model).toBe("tool");
  });

  it("sends an answer type structured outputs cannot say (a Record) through the tool, with its schema as it is", async () => {
    server = await startLoopback(anthropicRenderer(), [
      { calls: [{ id: "toolu_1", name: "final_answer", args: { EUR: 1.1, GBP: 0.9 } }] },
    ]);
    const result = await new Agent({
      name: "w",
      model: anthropic("claude-sonnet-4-5")(server.url),
      output: prices(),
    }).run("Prices?");
    expect(result.output).toEqual({ EUR: 1.1, GBP: 0.9 });
    const body = nth(server, 0).body as unknown as Anthropic.MessageCreateParams;
    expect(body.output_config).toBeUndefined();
    expect(body.tool_choice).toEqual({ type: "any" });
    expect(body.tools?.[0]).toMatchObject({ name: "final_answer", input_schema: PRICES_SCHEMA });
  });

  it("an explicit outputMode: tool wins over a model that has structured outputs", () => {
    const model = new HttpModel(
      "anthropic:claude-sonnet-4-5",
      anthropicCodec({ model: "claude-sonnet-4-5", baseURL: "http://127.0.0.1:9", apiKey: "k", outputMode: "tool" }),
    );
    expect(model.outputModeFor({ name: "Report", schema: report().jsonSchema }, [])).toBe("tool");
  });
});

describe("Gemini: responseJsonSchema, except beside tools before Gemini 3", () => {
  const getTime = tool({
    name: "get_time",
    description: "Current local time in a time zone.",
    parameters: { type: "object", properties: { zone: { type: "string" } }, required: ["zone"] },
    execute: () => "12:00",
  });
  const gemini = (model: string, url: string) =>
    new HttpModel(`google:${model}`, geminiCodec({ model, baseURL: url, apiKey: "k" }));
  const names = (body: Captured["body"]) =>
    ((body.tools as { functionDeclarations: { name: string }[] }[] | undefined) ?? []).flatMap((t) =>
      t.functionDeclarations.map((d) => d.name),
    );

  it("Gemini 2.5 with tools: the final-answer tool, no JSON response type (which the API refuses beside functions)", async () => {
    server = await startLoopback(geminiRenderer(), [
      { calls: [{ name: "get_time", args: { zone: "Europe/Paris" } }] },
      ANSWER_CALL,
    ]);
    const agent = new Agent({
      name: "w",
      model: gemini("gemini-2.5-flash", server.url),
      tools: [getTime],
      output: report(),
    });
    expect((await agent.run("Paris?")).output).toEqual(ANSWER);
    for (const { body } of server.requests) {
      expect(body.generationConfig).toBeUndefined();
      expect(names(body)).toEqual(["final_answer", "get_time"]);
      expect(body.toolConfig).toEqual({ functionCallingConfig: { mode: "ANY" } });
    }
  });

  it("Gemini 2.5 without tools, and Gemini 3 with them: responseJsonSchema", async () => {
    server = await startLoopback(geminiRenderer(), [
      { text: JSON.stringify(ARGS) },
      { calls: [{ name: "get_time", args: { zone: "Europe/Paris" } }] },
      { text: JSON.stringify(ARGS) },
    ]);
    const alone = new Agent({ name: "w", model: gemini("gemini-2.5-flash", server.url), output: report() });
    expect((await alone.run("Paris?")).output).toEqual(ANSWER);
    const three = gemini("gemini-3-pro-preview", server.url);
    const withTools = new Agent({ name: "w", model: three, tools: [getTime], output: report() });
    expect((await withTools.run("Paris?")).output).toEqual(ANSWER);
    const config = (n: number) => nth(server as Loopback, n).body.generationConfig as Record<string, unknown>;
    for (const n of [0, 1, 2]) expect(config(n)).toMatchObject({ responseMimeType: "application/json" });
    expect(names(nth(server, 1).body)).toEqual(["get_time"]);
  });
});

describe("OpenAI: strict only where the answer's schema fits strict mode", () => {
  const wires = [
    {
      name: "Chat Completions",
      renderer: () => openAiChatRenderer(),
      codec: (url: string) => openAiChatCodec({ model: "gpt-5-mini", baseURL: `${url}/v1`, apiKey: "k" }),
      format: (body: Captured["body"]) => (body.response_format as ResponseFormatJSONSchema | undefined)?.json_schema,
    },
    {
      name: "Responses",
      renderer: openAiResponsesRenderer,
      codec: (url: string) => openAiResponsesCodec({ model: "gpt-5-mini", baseURL: `${url}/v1`, apiKey: "k" }),
      format: (body: Captured["body"]) => (body.text as { format: Record<string, unknown> }).format,
    },
  ];
  for (const wire of wires) {
    it(`${wire.name}: a Record answer goes as json_schema with strict: false, and is still checked`, async () => {
      server = await startLoopback(wire.renderer(), [{ text: '{"EUR":"1.1"}' }, { text: '{"EUR":1.1}' }]);
      const model = new HttpModel("openai:gpt-5-mini", wire.codec(server.url));
      expect(model.outputModeFor({ name: "Prices", schema: PRICES_SCHEMA }, [])).toBe("native");
      const result = await new Agent({ name: "w", model, output: prices() }).run("Prices?");
      // "1.1" is repaired to 1.1: the first answer already fits.
      expect(result.output).toEqual({ EUR: 1.1 });
      expect(server.requests).toHaveLength(1);
      expect(wire.format(nth(server, 0).body)).toMatchObject({
        name: "Prices",
        strict: false,
        schema: { type: "object", additionalProperties: { type: "number" } },
      });
    });
  }
});
