import { afterEach, describe, expect, it } from "vitest";
import { Agent } from "../../src/agent/agent.js";
import { anthropicCodec } from "../../src/providers/anthropic.js";
import { ProviderError } from "../../src/providers/errors.js";
import { HttpModel } from "../../src/providers/http-model.js";
import { openAiChatCodec } from "../../src/providers/openai-chat.js";
import { tool } from "../../src/tools/tool.js";
import { TWO_TURNS } from "./conformance.js";
import { anthropicRenderer } from "./servers/anthropic-server.js";
import { type Loopback, type ScriptStep, startLoopback } from "./servers/loopback.js";
import { openAiChatRenderer } from "./servers/openai-chat-server.js";

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const cases = [
  {
    name: "OpenAI Chat Completions",
    renderer: openAiChatRenderer,
    model: (url: string) =>
      new HttpModel("openai:gpt-5-mini", openAiChatCodec({ model: "gpt-5-mini", baseURL: `${url}/v1`, apiKey: "k" })),
  },
  {
    name: "Anthropic Messages",
    renderer: anthropicRenderer,
    model: (url: string) =>
      new HttpModel(
        "anthropic:claude-sonnet-4-5",
        anthropicCodec({ model: "claude-sonnet-4-5", baseURL: url, apiKey: "k" }),
      ),
  },
];

function counted(name: string, runs: string[]) {
  return tool({
    name,
    description: `Test tool ${name}.`,
    parameters: { type: "object", additionalProperties: true },
    execute: () => {
      runs.push(name);
      return "done";
    },
  });
}

describe.each(cases)("a provider error mid-run through $name (loopback HTTP)", ({ renderer, model }) => {
  it.each([false, true])("keeps its type and carries the partial result (stream %s)", async (stream) => {
    server = await startLoopback(renderer(), [TWO_TURNS[0] as ScriptStep, { fault: "400" }]);
    const runs: string[] = [];
    const agent = new Agent({
      name: "partial",
      model: model(server.url),
      tools: [counted("get_weather", runs), counted("get_time", runs)],
    });
    const running = stream
      ? (async () => {
          for await (const _event of agent.stream("Weather and time in Paris?"));
        })()
      : agent.run("Weather and time in Paris?");
    const error = await running.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ status: 400, retryable: false });
    const { result } = error as ProviderError;
    expect(runs).toEqual(["get_weather", "get_time"]);
    expect(result?.status).toBe("stopped");
    expect(result?.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "tool"]);
    expect(result?.steps).toHaveLength(1);
    expect(result?.steps[0]?.calls.map((c) => c.outcome)).toEqual(["ok", "ok"]);
    expect(result?.usage).toMatchObject({ inputTokens: 120, outputTokens: 30, requests: 1 });
  });
});
