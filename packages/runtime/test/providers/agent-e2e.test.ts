import { afterEach, describe, expect, it } from "vitest";
import { Agent } from "../../src/agent/agent.js";
import type { Model } from "../../src/model/model.js";
import { anthropicCodec } from "../../src/providers/anthropic.js";
import { ProviderError } from "../../src/providers/errors.js";
import { geminiCodec } from "../../src/providers/gemini.js";
import { HttpModel, type HttpModelOptions } from "../../src/providers/http-model.js";
import { openAiChatCodec } from "../../src/providers/openai-chat.js";
import { openAiResponsesCodec } from "../../src/providers/openai-responses.js";
import { BudgetExceededError } from "../../src/runner/run-errors.js";
import type { AgentStreamEvent, RunResult } from "../../src/runner/run-result.js";
import { tool } from "../../src/tools/tool.js";
import { TWO_TURNS } from "./conformance.js";
import { anthropicRenderer } from "./servers/anthropic-server.js";
import { geminiRenderer } from "./servers/gemini-server.js";
import { type Loopback, nth, type ScriptStep, startLoopback, type WireRenderer } from "./servers/loopback.js";
import { openAiChatRenderer } from "./servers/openai-chat-server.js";
import { openAiResponsesRenderer } from "./servers/openai-responses-server.js";

const FAST: HttpModelOptions = { retry: { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 5 } };

const PROVIDERS: [string, () => WireRenderer, (url: string) => Model][] = [
  [
    "OpenAI Chat Completions",
    () => openAiChatRenderer(),
    (url) =>
      new HttpModel(
        "openai:gpt-5-mini",
        openAiChatCodec({ model: "gpt-5-mini", baseURL: `${url}/v1`, apiKey: "k" }),
        FAST,
      ),
  ],
  [
    "OpenAI Responses",
    openAiResponsesRenderer,
    (url) =>
      new HttpModel(
        "openai:gpt-5-mini",
        openAiResponsesCodec({ model: "gpt-5-mini", baseURL: `${url}/v1`, apiKey: "k" }),
        FAST,
      ),
  ],
  [
    "Anthropic Messages",
    anthropicRenderer,
    (url) =>
      new HttpModel(
        "anthropic:claude-sonnet-4-5",
        anthropicCodec({ model: "claude-sonnet-4-5", baseURL: url, apiKey: "k" }),
        FAST,
      ),
  ],
  [
    "Gemini",
    geminiRenderer,
    (url) =>
      new HttpModel(
        "google:gemini-2.5-flash",
        geminiCodec({ model: "gemini-2.5-flash", baseURL: url, apiKey: "k" }),
        FAST,
      ),
  ],
];

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The two tools of the scripted turns, as real toolwright tools that count their runs. */
function tools(runs: string[]) {
  return [
    tool({
      name: "get_weather",
      description: "Current weather for a city.",
      parameters: {
        type: "object",
        properties: { city: { type: "string" }, units: { type: "string", enum: ["c", "f"] } },
        required: ["city"],
        additionalProperties: false,
      },
      execute: (args: Record<string, unknown>) => {
        runs.push(`get_weather:${JSON.stringify(args)}`);
        return { temp_c: 16, sky: "fog" };
      },
    }),
    tool({
      name: "get_time",
      description: "Current local time in a time zone.",
      parameters: {
        type: "object",
        properties: { zone: { type: "string" } },
        required: ["zone"],
        additionalProperties: false,
      },
      execute: (args: Record<string, unknown>) => {
        runs.push(`get_time:${JSON.stringify(args)}`);
        return "12:00";
      },
    }),
  ];
}

async function runAgent(model: Model, runs: string[], stream: boolean) {
  const agent = new Agent({ name: "e2e", model, instructions: "Use the tools.", tools: tools(runs) });
  if (!stream) return { result: await agent.run("Weather and time in Paris?"), events: [] as AgentStreamEvent[] };
  const events: AgentStreamEvent[] = [];
  const it = agent.stream("Weather and time in Paris?");
  for (;;) {
    const next = await it.next();
    if (next.done) return { result: next.value as RunResult, events };
    events.push(next.value);
  }
}

function expectWellFormed(result: RunResult): void {
  const roles = result.messages.map((m) => m.role);
  expect(roles).toEqual(["user", "assistant", "tool", "tool", "assistant"]);
  const calls = result.messages[1]?.role === "assistant" ? result.messages[1].toolCalls : [];
  const answered = result.messages.filter((m) => m.role === "tool").map((m) => (m.role === "tool" ? m.callId : ""));
  expect(answered).toEqual(calls.map((c) => c.id));
  expect(result.output).toBe("Foggy, 16°C, and it is noon.");
}

describe.each(PROVIDERS)("Agent end to end through %s", (_name, renderer, makeModel) => {
  for (const stream of [false, true]) {
    const mode = stream ? "agent.stream" : "agent.run";

    it(`runs the two-call tool loop (${mode})`, async () => {
      server = await startLoopback(renderer(), TWO_TURNS);
      const runs: string[] = [];
      const { result, events } = await runAgent(makeModel(server.url), runs, stream);
      expectWellFormed(result);
      expect(runs).toEqual(['get_weather:{"city":"Paris","units":"c"}', 'get_time:{"zone":"Europe/Paris"}']);
      expect(result.usage.outputTokens).toBe(42);
      if (stream) {
        expect(events.filter((e) => e.type === "tool-call-start")).toHaveLength(2);
        expect(events.filter((e) => e.type === "tool-result")).toHaveLength(2);
      }
    });

    it(`survives a cut stream and an error event mid-turn without running a tool twice (${mode})`, async () => {
      const script: ScriptStep[] = [
        { fault: "truncate" },
        TWO_TURNS[0] as ScriptStep,
        { fault: "error-event" },
        { fault: "529" },
        TWO_TURNS[1] as ScriptStep,
      ];
      server = await startLoopback(renderer(), script);
      const runs: string[] = [];
      const { result, events } = await runAgent(makeModel(server.url), runs, stream);
      expectWellFormed(result);
      expect(runs).toHaveLength(2);
      expect(server.requests).toHaveLength(5);
      if (stream) expect(events.some((e) => e.type === "model-retry")).toBe(true);
    });

    it(`fails with a typed ProviderError when retries run out, having run no tool (${mode})`, async () => {
      server = await startLoopback(renderer(), [
        { fault: "500" },
        { fault: "reset" },
        { fault: "429", retryAfter: "0" },
      ]);
      const runs: string[] = [];
      const error = await runAgent(makeModel(server.url), runs, stream).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ status: 429, retryable: true });
      expect(runs).toEqual([]);
    });
  }
});

describe("usage feeds maxCostUsd", () => {
  it("Anthropic cache reads are priced as cached input, and the budget stops the run", async () => {
    server = await startLoopback(anthropicRenderer(), TWO_TURNS);
    const runs: string[] = [];
    const model = (PROVIDERS[2] as (typeof PROVIDERS)[number])[2](server.url);
    const agent = new Agent({ name: "budget", model, tools: tools(runs), maxCostUsd: 0.0001 });
    const error = await agent.run("Weather and time in Paris?").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BudgetExceededError);
    const { usage } = (error as BudgetExceededError).result;
    expect(usage).toMatchObject({ inputTokens: 120, cachedInputTokens: 100, outputTokens: 30 });
    // claude-sonnet-4-5: 20 fresh input at $3, 100 cached at $0.30, 30 output at $15 per million.
    expect(usage.costUsd).toBeCloseTo((20 * 3 + 100 * 0.3 + 30 * 15) / 1_000_000, 12);
  });
});

describe("OpenAI strict-mode nulls, end to end", () => {
  it("the null a strict model sends for an optional key is dropped before validation and never reaches the tool", async () => {
    server = await startLoopback(openAiChatRenderer(), [
      { calls: [{ id: "call_n1", name: "get_weather", args: { city: "Paris", units: null } }] },
      { text: "Done." },
    ]);
    const runs: string[] = [];
    const model = (PROVIDERS[0] as (typeof PROVIDERS)[number])[2](server.url);
    const result = await new Agent({ name: "nulls", model, tools: tools(runs) }).run("Weather in Paris?");
    // The schema sent made `units` required and nullable...
    const sent = (
      nth(server, 0).body.tools as { function: { name: string; parameters: Record<string, unknown> } }[]
    ).find((t) => t.function.name === "get_weather");
    expect(sent?.function).toEqual({
      name: "get_weather",
      description: "Current weather for a city.",
      strict: true,
      parameters: {
        type: "object",
        properties: { city: { type: "string" }, units: { type: ["string", "null"], enum: ["c", "f", null] } },
        required: ["city", "units"],
        additionalProperties: false,
      },
    });
    // ...and the tool ran with the key absent, as its canonical schema says.
    expect(runs).toEqual(['get_weather:{"city":"Paris"}']);
    expect(nth(server, 1).body.messages).toContainEqual(
      expect.objectContaining({ role: "tool", tool_call_id: "call_n1", content: '{"temp_c":16,"sky":"fog"}' }),
    );
    expect(result.output).toBe("Done.");
  });

  it("a null for a required key is not dropped: the tool does not run and the model reads why", async () => {
    server = await startLoopback(openAiChatRenderer(), [
      { calls: [{ id: "call_n2", name: "get_weather", args: { city: null, units: null } }] },
      { text: "Sorry." },
    ]);
    const runs: string[] = [];
    const model = (PROVIDERS[0] as (typeof PROVIDERS)[number])[2](server.url);
    const result = await new Agent({ name: "nulls", model, tools: tools(runs) }).run("Weather?");
    expect(runs).toEqual([]);
    const read = result.messages.find((m) => m.role === "tool");
    expect(read).toMatchObject({ callId: "call_n2", outcome: "invalid_arguments" });
    expect(read?.content).toMatch(/- \/city: expected string, got null/);
  });
});
