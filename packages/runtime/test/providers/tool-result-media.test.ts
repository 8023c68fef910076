import { afterEach, describe, expect, it } from "vitest";
import { Agent } from "../../src/agent/agent.js";
import type { Model } from "../../src/model/model.js";
import { anthropicCodec } from "../../src/providers/anthropic.js";
import { geminiCodec } from "../../src/providers/gemini.js";
import { HttpModel } from "../../src/providers/http-model.js";
import { openAiChatCodec } from "../../src/providers/openai-chat.js";
import { openAiResponsesCodec } from "../../src/providers/openai-responses.js";
import type { Tool } from "../../src/tools/tool-types.js";
import { anthropicRenderer } from "./servers/anthropic-server.js";
import { geminiRenderer } from "./servers/gemini-server.js";
import { type Loopback, nth, type ScriptStep, startLoopback, type WireRenderer } from "./servers/loopback.js";
import { openAiChatRenderer } from "./servers/openai-chat-server.js";
import { openAiResponsesRenderer } from "./servers/openai-responses-server.js";

/**
 * A tool that returns an image, run by the agent loop against each provider's loopback
 * server: the next request carries the image itself where the provider takes images in a
 * tool result, and a label naming it (never the base64 as JSON text) where it does not.
 */

/** A 1×1 PNG. */
export const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const LABEL = `[image image/png, ${Buffer.from(PNG, "base64").length} bytes]`;

const screenshot: Tool = {
  name: "screenshot",
  description: "Takes a screenshot of the page.",
  parameters: { type: "object", properties: {}, additionalProperties: false },
  flags: { readOnly: true },
  execute: () => ["The page, as it looks now:", { type: "image", data: PNG, mimeType: "image/png" }],
};

const SCRIPT: readonly ScriptStep[] = [
  { calls: [{ id: "call_s1", name: "screenshot", args: {} }] },
  { text: "A blank page." },
];

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Runs the screenshot turn against `renderer`'s server; returns the body of the request that carried the result. */
async function second(renderer: WireRenderer, make: (url: string) => Model): Promise<Record<string, unknown>> {
  server = await startLoopback(renderer, SCRIPT);
  const agent = new Agent({ name: "eyes", model: make(server.url), tools: [screenshot] });
  expect((await agent.run("What is on the page?")).output).toBe("A blank page.");
  return nth(server, 1).body as Record<string, unknown>;
}

describe("an image a tool returns, in the next request", () => {
  it("Anthropic: a tool_result with a text block and a base64 image block", async () => {
    const body = await second(
      anthropicRenderer(),
      (url) =>
        new HttpModel(
          "anthropic:claude-sonnet-4-5",
          anthropicCodec({ model: "claude-sonnet-4-5", baseURL: url, apiKey: "k" }),
        ),
    );
    const messages = body.messages as { role: string; content: unknown }[];
    expect(messages.at(-1)).toEqual({
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "call_s1",
          is_error: false,
          content: [
            { type: "text", text: `The page, as it looks now:\n${LABEL}` },
            { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
          ],
        },
      ],
    });
  });

  it("Gemini: a functionResponse whose parts hold the image as inlineData", async () => {
    const body = await second(
      geminiRenderer(),
      (url) =>
        new HttpModel("google:gemini-2.5-flash", geminiCodec({ model: "gemini-2.5-flash", baseURL: url, apiKey: "k" })),
    );
    const contents = body.contents as { role: string; parts: { functionResponse?: unknown }[] }[];
    expect(contents.at(-1)?.parts[0]?.functionResponse).toMatchObject({
      name: "screenshot",
      response: { output: `The page, as it looks now:\n${LABEL}` },
      parts: [{ inlineData: { mimeType: "image/png", data: PNG } }],
    });
  });

  it("OpenAI Responses: a function_call_output of input_text and an input_image data URL", async () => {
    const body = await second(
      openAiResponsesRenderer(),
      (url) =>
        new HttpModel(
          "openai:gpt-5-mini",
          openAiResponsesCodec({ model: "gpt-5-mini", baseURL: `${url}/v1`, apiKey: "k" }),
        ),
    );
    const output = (body.input as { type?: string; output?: unknown }[]).find((i) => i.type === "function_call_output");
    expect(output?.output).toEqual([
      { type: "input_text", text: `The page, as it looks now:\n${LABEL}` },
      { type: "input_image", image_url: `data:image/png;base64,${PNG}` },
    ]);
  });

  it("OpenAI Chat Completions (text only in tool messages): the image's label, not its base64", async () => {
    const body = await second(
      openAiChatRenderer(),
      (url) =>
        new HttpModel("openai:gpt-5-mini", openAiChatCodec({ model: "gpt-5-mini", baseURL: `${url}/v1`, apiKey: "k" })),
    );
    const tool = (body.messages as { role: string; content?: unknown }[]).find((m) => m.role === "tool");
    expect(tool?.content).toBe(`The page, as it looks now:\n${LABEL}`);
    expect(JSON.stringify(body)).not.toContain(PNG);
  });
});
