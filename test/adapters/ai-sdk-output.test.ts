import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText, Output } from "ai";
import { SCHEMA_SPEC_VERSION, type Schema, schema } from "toolwright";
import { afterEach, describe, expect, it } from "vitest";
import { type Loopback, nth, startLoopback } from "../../packages/runtime/test/providers/servers/loopback.js";
import { openAiChatRenderer } from "../../packages/runtime/test/providers/servers/openai-chat-server.js";

// A schema<T>() is a Standard Schema with Standard JSON Schema: the AI SDK's own typed
// answer (Output.object) takes it as it is, sends its JSON Schema as the structured output
// and checks the answer with toolwright's validate, against a loopback Chat Completions server.

/** A weather report. */
interface Report {
  city: string;
  celsius: number;
  at: Date;
}

const REPORT_SCHEMA = {
  type: "object",
  properties: {
    city: { type: "string" },
    celsius: { type: "number" },
    at: { type: "string", format: "date-time", "x-toolwright-date": true },
  },
  required: ["city", "celsius", "at"],
  additionalProperties: false,
};

/** `schema<Report>()` as the compiler's output calls it (the spec the transformer writes, built by hand). */
const report = (): Schema<Report> =>
  schema<Report>(undefined, {
    $toolwrightSchema: SCHEMA_SPEC_VERSION,
    name: "Report",
    description: "A weather report.",
    schema: REPORT_SCHEMA,
    source: { file: "src/report.ts", line: 1 },
  });

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function modelFor(text: string) {
  server = await startLoopback(openAiChatRenderer(), [{ text }]);
  return createOpenAICompatible({
    name: "loopback",
    baseURL: `${server.url}/v1`,
    apiKey: "k",
    supportsStructuredOutputs: true,
  })("test-model");
}

describe("schema<T>() as the AI SDK's Output.object schema", () => {
  it("sends its JSON Schema as response_format and gives the answer toolwright checked: repaired, its Date revived", async () => {
    const model = await modelFor('{"city":"Paris","celsius":"18.5","at":"2026-03-01T09:30:00Z"}');
    const result = await generateText({
      model,
      prompt: "Weather in Paris?",
      output: Output.object({ schema: report() }),
    });
    expect(result.output).toEqual({ city: "Paris", celsius: 18.5, at: new Date("2026-03-01T09:30:00Z") });
    const format = nth(server as Loopback, 0).body.response_format as {
      type: string;
      json_schema: { schema: Record<string, unknown> };
    };
    expect(format.type).toBe("json_schema");
    // The SDK asks for draft-07; the runtime's own keyword stays out of what the model sees.
    expect(format.json_schema.schema).toMatchObject({ properties: { at: { type: "string", format: "date-time" } } });
    expect(JSON.stringify(format.json_schema.schema)).not.toContain("x-toolwright");
  });

  it("refuses an answer that does not fit with toolwright's messages", async () => {
    const model = await modelFor('{"city":"Paris","celsius":"warm","at":"2026-03-01T09:30:00Z"}');
    const failed = await generateText({
      model,
      prompt: "Weather in Paris?",
      output: Output.object({ schema: report() }),
    })
      .then((result) => result.output)
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(Error);
    expect((failed as Error).name).toBe("AI_NoObjectGeneratedError");
    // Its cause quotes the Standard Schema issues as JSON: toolwright's message, the path as keys.
    expect(String((failed as Error).cause)).toContain(
      '{"message":"/celsius: expected number, got \\"warm\\" (a string)","path":["celsius"]}',
    );
  });
});
