import { afterEach, describe, expect, it } from "vitest";
import { ProviderTimeoutError } from "../../src/providers/errors.js";
import { HttpModel, type HttpModelOptions } from "../../src/providers/http-model.js";
import { openAiChatCodec } from "../../src/providers/openai-chat.js";
import { TWO_TURNS } from "./conformance.js";
import { drive } from "./drive.js";
import { type Loopback, type ScriptStep, startLoopback } from "./servers/loopback.js";
import { openAiChatRenderer } from "./servers/openai-chat-server.js";

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function modelFor(script: readonly ScriptStep[], options: HttpModelOptions) {
  server = await startLoopback(openAiChatRenderer(), script);
  return new HttpModel(
    "openai:gpt-5-mini",
    openAiChatCodec({ model: "m", baseURL: `${server.url}/v1`, apiKey: "k" }),
    options,
  );
}

describe("time limits and cancellation", () => {
  it("a request past requestTimeoutMs is a retryable timeout, and the turn is sent again", async () => {
    const model = await modelFor([{ fault: "hang" }, ...TWO_TURNS], {
      // Long enough that a loaded machine still answers the good attempts in time.
      requestTimeoutMs: 1_000,
      retry: { maxRetries: 2, initialDelayMs: 1 },
    });
    const run = await drive(model, "Weather?", { stream: true });
    expect(run.executions).toHaveLength(2);
    expect(server?.requests).toHaveLength(3);
  });

  it("a turn past totalTimeoutMs fails with a non-retryable ProviderTimeoutError naming the option", async () => {
    const model = await modelFor([{ fault: "hang" }, { fault: "hang" }, { fault: "hang" }], {
      requestTimeoutMs: 60_000,
      totalTimeoutMs: 100,
    });
    const error = await model
      .generate({ messages: [{ role: "user", content: "hi" }], tools: [] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderTimeoutError);
    expect(error).toMatchObject({ retryable: false, provider: "openai" });
    expect((error as Error).message).toMatch(/totalTimeoutMs/);
    expect(server?.requests.length).toBeLessThanOrEqual(1);
  });

  it("the caller's signal aborts a request in flight, with the caller's reason", async () => {
    const model = await modelFor([{ fault: "hang" }], {});
    const controller = new AbortController();
    const pending = drive(model, "hi", { stream: true, signal: controller.signal }).catch((e: unknown) => e);
    while ((server?.requests.length ?? 0) === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort(new Error("stop now"));
    expect(((await pending) as Error).message).toBe("stop now");
  });
});
