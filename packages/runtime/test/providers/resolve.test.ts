import { afterEach, describe, expect, it } from "vitest";
import { ModelConfigError, ProviderStreamError } from "../../src/index.js";
import { resolveModel } from "../../src/providers/index.js";
import { drive } from "./drive.js";
import { anthropicRenderer } from "./servers/anthropic-server.js";
import { geminiRenderer } from "./servers/gemini-server.js";
import { type Loopback, nth, startLoopback, type WireRenderer } from "./servers/loopback.js";
import { openAiChatRenderer } from "./servers/openai-chat-server.js";
import { openAiResponsesRenderer } from "./servers/openai-responses-server.js";

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("resolveModel", () => {
  const cases: [string, Record<string, string>, () => WireRenderer, string, string][] = [
    [
      "openai:gpt-5-mini",
      { OPENAI_API_KEY: "k1" },
      () => openAiChatRenderer(),
      "/v1/chat/completions",
      "openai:gpt-5-mini",
    ],
    [
      "openai-responses:gpt-5-mini",
      { OPENAI_API_KEY: "k1" },
      openAiResponsesRenderer,
      "/v1/responses",
      "openai:gpt-5-mini",
    ],
    [
      "anthropic:claude-sonnet-4-5",
      { ANTHROPIC_API_KEY: "k2" },
      anthropicRenderer,
      "/v1/messages",
      "anthropic:claude-sonnet-4-5",
    ],
    [
      "gemini:gemini-2.5-flash",
      { GOOGLE_API_KEY: "k3" },
      geminiRenderer,
      "/v1beta/models/gemini-2.5-flash:generateContent",
      "google:gemini-2.5-flash",
    ],
  ];
  for (const [id, keys, renderer, path, modelId] of cases) {
    it(`${id}: key and base URL from the environment, request to ${path}`, async () => {
      server = await startLoopback(renderer(), [{ text: "hello" }]);
      const base = id.startsWith("openai") ? `${server.url}/v1` : server.url;
      const env = { ...keys, OPENAI_BASE_URL: base, ANTHROPIC_BASE_URL: base, GEMINI_BASE_URL: base };
      const model = resolveModel(id, { env });
      expect(model.id).toBe(modelId);
      const run = await drive(model, "hi", { stream: false });
      expect(run.messages.at(-1)).toMatchObject({ role: "assistant", content: "hello" });
      expect(nth(server, 0).path).toBe(path);
      const sent = nth(server, 0).headers;
      expect([sent.authorization, sent["x-api-key"], sent["x-goog-api-key"]]).toContain(
        id.startsWith("openai") ? `Bearer ${Object.values(keys)[0]}` : Object.values(keys)[0],
      );
    });
  }

  it("openai-compatible:<model>@<baseURL> and local servers need no key", async () => {
    server = await startLoopback(openAiChatRenderer(), [{ text: "a" }, { text: "b" }]);
    const compatible = resolveModel(`openai-compatible:qwen3@${server.url}/v1`, { env: {} });
    expect(compatible.id).toBe("openai-compatible:qwen3");
    await compatible.generate({ messages: [{ role: "user", content: "hi" }], tools: [] });
    const ollama = resolveModel("ollama:qwen3:8b", { env: { OLLAMA_BASE_URL: `${server.url}/v1` } });
    await ollama.generate({ messages: [{ role: "user", content: "hi" }], tools: [] });
    expect(nth(server, 0).body.model).toBe("qwen3");
    expect(nth(server, 1).body.model).toBe("qwen3:8b");
    expect(nth(server, 0).headers.authorization).toBeUndefined();
  });

  it("a missing key is a ModelConfigError naming the variable, before any request", () => {
    expect(() => resolveModel("anthropic:claude-sonnet-4-5", { env: {} })).toThrow(ModelConfigError);
    expect(() => resolveModel("openai:gpt-5-mini", { env: {} })).toThrow(/set OPENAI_API_KEY in the environment/);
    expect(() => resolveModel("gemini:gemini-2.5-flash", { env: {} })).toThrow(/GEMINI_API_KEY or GOOGLE_API_KEY/);
  });

  it("an unknown or malformed model string says what is accepted", () => {
    expect(() => resolveModel("gpt-5-mini", { env: {} })).toThrow(/"<provider>:<model>".*openai, openai-responses/);
    expect(() => resolveModel("cohere:command", { env: {} })).toThrow(ModelConfigError);
    expect(() => resolveModel("openai-compatible:mymodel", { env: {} })).toThrow(/names no server/);
  });
});

describe("a local server that is not running", () => {
  it("fails with a retryable ProviderStreamError that names the address and the likely fix", async () => {
    const gone = await startLoopback(openAiChatRenderer(), []);
    await gone.close();
    const model = resolveModel(`ollama:qwen3@${gone.url}/v1`, { env: {}, retry: { maxRetries: 1, initialDelayMs: 1 } });
    const error = await model
      .generate({ messages: [{ role: "user", content: "hi" }], tools: [] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderStreamError);
    expect(error).toMatchObject({ retryable: true, provider: "openai-compatible (ollama)" });
    expect((error as Error).message).toContain(`is the server running at ${gone.url}?`);
  });
});
