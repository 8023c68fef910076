import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { Agent } from "../../src/agent/agent.js";
import type { Message } from "../../src/model/messages.js";
import { HttpModel } from "../../src/providers/http-model.js";
import { openAiChatCodec } from "../../src/providers/openai-chat.js";
import { openAiResponsesCodec } from "../../src/providers/openai-responses.js";
import { tool } from "../../src/tools/tool.js";
import { compiledSchema, report } from "../output/compiled.js";
import { TWO_TURNS } from "./conformance.js";
import { drive, TOOLS } from "./drive.js";
import { type Captured, type Loopback, startLoopback } from "./servers/loopback.js";
import { openAiChatRenderer } from "./servers/openai-chat-server.js";
import { openAiResponsesRenderer } from "./servers/openai-responses-server.js";

/** OpenAI's own OpenAPI description, shipped in shared/specs beside the repository. */
const SPEC = fileURLToPath(new URL("../../../../../shared/specs/openai-openapi.yaml", import.meta.url));

let ajv: Ajv2020;
const servers: Loopback[] = [];

/** OpenAPI 3.0's `nullable` (still found in the 3.1 document) as JSON Schema: `null` joins the type. */
function withoutNullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutNullable);
  if (typeof node !== "object" || node === null) return node;
  const { nullable, ...rest } = node as Record<string, unknown>;
  const out = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, withoutNullable(v)]));
  if (nullable !== true) return out;
  if (typeof out.type !== "string") return { anyOf: [out, { type: "null" }] };
  out.type = [out.type, "null"];
  if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
  return out;
}

beforeAll(() => {
  // The whole document is one schema resource, so its "#/components/schemas/..." refs resolve in place.
  const spec = parse(readFileSync(SPEC, "utf8")) as Record<string, unknown>;
  ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema({ $id: "openai", components: withoutNullable(spec.components) }, "openai");
});

afterAll(async () => {
  for (const s of servers) await s.close();
});

function expectValid(schema: string, captured: readonly Captured[]): void {
  const validate = ajv.getSchema(`openai#/components/schemas/${schema}`);
  if (!validate) throw new Error(`no schema ${schema} in the OpenAPI document`);
  expect(captured.length).toBeGreaterThan(0);
  for (const request of captured) {
    const ok = validate(request.body);
    expect(ok ? [] : validate.errors?.slice(0, 5), JSON.stringify(request.body).slice(0, 400)).toEqual([]);
  }
}

async function capture(renderer: Parameters<typeof startLoopback>[0], make: (url: string) => HttpModel) {
  const server = await startLoopback(renderer, [...TWO_TURNS, ...TWO_TURNS, { text: "named" }]);
  servers.push(server);
  const model = make(server.url);
  await drive(model, "Weather and time in Paris?", { stream: false });
  await drive(model, "Weather and time in Paris?", { stream: true });
  await model.generate({
    messages: [{ role: "user", content: "time?" }],
    tools: TOOLS,
    toolChoice: { name: "get_time" },
  });
  return server.requests;
}

describe("request bodies validate against OpenAI's OpenAPI description", () => {
  it("Chat Completions bodies (streamed and not, with tool results and a named tool choice) fit CreateChatCompletionRequest", async () => {
    const sent = await capture(
      openAiChatRenderer(),
      (url) =>
        new HttpModel("openai:gpt-5-mini", openAiChatCodec({ model: "gpt-5-mini", baseURL: `${url}/v1`, apiKey: "k" })),
    );
    expect(sent).toHaveLength(5);
    expectValid("CreateChatCompletionRequest", sent);
  });

  it("Responses bodies (echoed reasoning and function_call items, function_call_output) fit CreateResponse", async () => {
    const sent = await capture(
      openAiResponsesRenderer(),
      (url) =>
        new HttpModel(
          "openai:gpt-5-mini",
          openAiResponsesCodec({ model: "gpt-5-mini", baseURL: `${url}/v1`, apiKey: "k" }),
        ),
    );
    expect(sent).toHaveLength(5);
    expectValid("CreateResponse", sent);
  });

  it("a tool result holding an image fits both: an input_image in a Responses function_call_output, text in a Chat tool message", async () => {
    const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    const messages: Message[] = [
      { role: "user", content: "What is on the page?" },
      { role: "assistant", content: "", toolCalls: [{ id: "call_1", name: "get_time", arguments: "{}" }] },
      {
        role: "tool",
        callId: "call_1",
        toolName: "get_time",
        content: "[image image/png, 70 bytes]",
        outcome: "ok",
        isError: false,
        media: [{ type: "image", data: png, mimeType: "image/png" }],
      },
    ];
    const send = async (renderer: Parameters<typeof startLoopback>[0], make: (url: string) => HttpModel) => {
      const server = await startLoopback(renderer, [{ text: "A blank page." }]);
      servers.push(server);
      await make(server.url).generate({ messages, tools: TOOLS });
      return server.requests;
    };
    const responses = await send(
      openAiResponsesRenderer(),
      (url) =>
        new HttpModel(
          "openai:gpt-5-mini",
          openAiResponsesCodec({ model: "gpt-5-mini", baseURL: `${url}/v1`, apiKey: "k" }),
        ),
    );
    expect(JSON.stringify(responses[0]?.body)).toContain('"type":"input_image"');
    expectValid("CreateResponse", responses);
    const chat = await send(
      openAiChatRenderer(),
      (url) =>
        new HttpModel("openai:gpt-5-mini", openAiChatCodec({ model: "gpt-5-mini", baseURL: `${url}/v1`, apiKey: "k" })),
    );
    expectValid("CreateChatCompletionRequest", chat);
  });

  it("bodies asking for a typed answer (an object, a list inside { answer }, a Record not strict) fit both request schemas", async () => {
    const answer = '{"city":"Paris","celsius":18.5,"at":"2026-03-01T09:30:00Z"}';
    const list = () => compiledSchema<string[]>({ type: "array", items: { type: "string" } }, { name: "cities" });
    const prices = () =>
      compiledSchema<Record<string, number>>(
        { type: "object", additionalProperties: { type: "number" } },
        { name: "prices" },
      );
    const makers = [
      [
        openAiChatRenderer(),
        (url: string) => openAiChatCodec({ model: "gpt-5-mini", baseURL: `${url}/v1`, apiKey: "k" }),
      ],
      [
        openAiResponsesRenderer(),
        (url: string) => openAiResponsesCodec({ model: "gpt-5-mini", baseURL: `${url}/v1`, apiKey: "k" }),
      ],
    ] as const;
    const sent: Captured[][] = [];
    for (const [renderer, codec] of makers) {
      const server = await startLoopback(renderer, [
        { calls: [{ id: "call_1", name: "get_time", args: { zone: "Europe/Paris" } }] },
        { text: '{"city":"Paris"}' },
        { text: answer },
        { text: '{"answer":["Paris"]}' },
        { text: '{"EUR":1.1}' },
      ]);
      servers.push(server);
      const model = new HttpModel("openai:gpt-5-mini", codec(server.url));
      const getTime = tool({
        name: "get_time",
        description: "Current local time in a time zone.",
        parameters: { type: "object", properties: { zone: { type: "string" } }, required: ["zone"] },
        execute: () => "12:00",
      });
      // A tool turn, a wrong answer and its feedback, the right answer; then a list, streamed.
      await new Agent({ name: "w", model, tools: [getTime], output: report() }).run("Paris?");
      for await (const _ of new Agent({ name: "w", model, output: list() }).stream("Cities?"));
      await new Agent({ name: "w", model, output: prices() }).run("Prices?");
      sent.push(server.requests);
    }
    expect(sent[0]?.[0]?.body.response_format).toMatchObject({ type: "json_schema" });
    expect(sent[1]?.[0]?.body.text).toMatchObject({ format: { type: "json_schema" } });
    expect(sent.map((requests) => JSON.stringify(requests.at(-1)?.body))).toEqual([
      expect.stringContaining('"strict":false'),
      expect.stringContaining('"strict":false'),
    ]);
    expectValid("CreateChatCompletionRequest", sent[0] ?? []);
    expectValid("CreateResponse", sent[1] ?? []);
  });

  it("a typed answer through the final-answer tool (outputMode: tool) fits CreateChatCompletionRequest, streamed and not", async () => {
    const call = {
      calls: [
        { id: "call_a", name: "final_answer", args: { city: "Paris", celsius: 18.5, at: "2026-03-01T09:30:00Z" } },
      ],
    };
    const server = await startLoopback(openAiChatRenderer(), [call, call]);
    servers.push(server);
    const model = new HttpModel(
      "openai:gpt-5-mini",
      openAiChatCodec({
        model: "gpt-5-mini",
        baseURL: `${server.url}/v1`,
        apiKey: "k",
        quirks: { outputMode: "tool" },
      }),
    );
    const agent = new Agent({ name: "w", model, output: report() });
    await agent.run("Paris?");
    for await (const _ of agent.stream("Paris?"));
    expect(server.requests.map((r) => [r.body.tool_choice, r.body.response_format])).toEqual([
      ["required", undefined],
      ["required", undefined],
    ]);
    expectValid("CreateChatCompletionRequest", server.requests);
  });

  it("the loopback servers answer in OpenAI's own response and stream-event shapes", () => {
    const check = (schema: string, values: unknown[]) => {
      const validate = ajv.getSchema(`openai#/components/schemas/${schema}`);
      if (!validate) throw new Error(`no schema ${schema}`);
      for (const value of values) {
        expect(
          validate(value) ? [] : validate.errors?.slice(0, 3),
          `${schema}: ${JSON.stringify(value).slice(0, 300)}`,
        ).toEqual([]);
      }
    };
    const frames = (lines: string[]) =>
      lines
        .map((f) => /^data: (.*)$/m.exec(f)?.[1] ?? "")
        .filter((d) => d && d !== "[DONE]")
        .map((d) => JSON.parse(d) as unknown);
    const req = {
      method: "POST",
      path: "/",
      headers: {},
      body: { stream: true, stream_options: { include_usage: true } },
    };
    const chat = openAiChatRenderer();
    const responses = openAiResponsesRenderer();
    for (const turn of [...TWO_TURNS, { refusal: "I can't help with that." }]) {
      check("CreateChatCompletionResponse", [chat.json(turn, req)]);
      check("CreateChatCompletionStreamResponse", frames(chat.sse(turn, req)));
      check("Response", [responses.json(turn, req)]);
      check("ResponseStreamEvent", frames(responses.sse(turn, req)));
    }
  });

  it("the validator is not vacuous: a body with a wrong field type fails", () => {
    const validate = ajv.getSchema("openai#/components/schemas/CreateChatCompletionRequest");
    expect(validate?.({ model: "gpt-5-mini", messages: [{ role: "tool", content: "x" }] })).toBe(false);
    expect(validate?.({ model: "gpt-5-mini", messages: "hello" })).toBe(false);
    const responses = ajv.getSchema("openai#/components/schemas/CreateResponse");
    expect(responses?.({ model: "gpt-5-mini", input: 42 })).toBe(false);
    expect(responses?.({ model: "gpt-5-mini", input: "hi", tools: [{ type: "function", parameters: {} }] })).toBe(
      false,
    );
    // A json_schema format without its name is no format either API takes.
    const messages = [{ role: "user", content: "hi" }];
    const nameless = { type: "json_schema", schema: { type: "object" } };
    expect(validate?.({ model: "m", messages, response_format: { type: "json_schema", json_schema: nameless } })).toBe(
      false,
    );
    expect(responses?.({ model: "m", input: "hi", text: { format: nameless } })).toBe(false);
  });
});
