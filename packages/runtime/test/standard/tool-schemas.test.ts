import type { StandardSchemaV1 } from "@standard-schema/spec";
import { describe, expect, expectTypeOf, it } from "vitest";
import { type Schema, SPEC_VERSION, type ToolArgs, type ToolSpec, tool, toolSchemas } from "../../src/index.js";

// Every tool's arguments and result as Standard Schemas: what other runtimes validate with.

function forecast(city: string, days: number, from: Date): { city: string; highs: number[] } {
  return { city, highs: Array.from({ length: days }, (_, i) => 10 + i + from.getUTCDate() * 0) };
}

const SPEC: ToolSpec = {
  $toolwright: SPEC_VERSION,
  name: "forecast",
  description: "Daily highs for a city.",
  parameters: {
    type: "object",
    properties: {
      city: { type: "string" },
      days: { type: "integer", minimum: 1, maximum: 7 },
      from: { type: "string", format: "date-time", "x-toolwright-date": true },
    },
    required: ["city", "days", "from"],
    additionalProperties: false,
  },
  slots: [
    { kind: "arg", name: "city" },
    { kind: "arg", name: "days" },
    { kind: "arg", name: "from" },
  ],
  outputSchema: {
    type: "object",
    properties: { city: { type: "string" }, highs: { type: "array", items: { type: "number" } } },
    required: ["city", "highs"],
    additionalProperties: false,
  },
  flags: { readOnly: true },
  source: { file: "src/forecast.ts", line: 1 },
};

const weather = tool(forecast, {}, SPEC);

describe("toolSchemas(tool)", () => {
  it("types the input as the arguments object and the output as the function's return", () => {
    const { input, output } = toolSchemas(weather);
    expectTypeOf<StandardSchemaV1.InferOutput<typeof input>>().toEqualTypeOf<ToolArgs>();
    expectTypeOf(output).toEqualTypeOf<Schema<{ city: string; highs: number[] }> | undefined>();
    expect(toolSchemas(weather)).toBe(toolSchemas(weather));
  });

  it("validates arguments as the loop does: repaired, dated and frozen, or the model's feedback message", async () => {
    const { input } = toolSchemas(weather);
    const ok = await input["~standard"].validate({ city: "Paris", days: "3", from: "2026-03-01T00:00:00Z" });
    expect(ok).toEqual({ value: { city: "Paris", days: 3, from: new Date("2026-03-01T00:00:00Z") } });
    if (ok.issues) throw new Error("expected a value");
    expect(Object.isFrozen(ok.value)).toBe(true);
    const bad = await input["~standard"].validate({ city: "Paris", days: 9, form: "x" });
    expect(bad.issues?.map((i) => i.path)).toEqual([["form"], ["from"], ["days"]]);
    const check = input.validate({ city: "Paris", days: 9 });
    expect(check.ok ? "" : check.message).toMatch(/^Invalid arguments for tool "forecast":\n/);
  });

  it("validates a result as the model reads it", async () => {
    const { output } = toolSchemas(weather);
    if (!output) throw new Error("the tool has an output schema");
    expect(await output["~standard"].validate(forecast("Oslo", 2, new Date()))).toEqual({
      value: { city: "Oslo", highs: [10, 11] },
    });
    const wrong = await output["~standard"].validate({ city: "Oslo", highs: new Set(["hot"]) });
    expect(wrong.issues).toEqual([{ message: '/highs/0: expected number, got "hot" (a string)', path: ["highs", 0] }]);
  });

  it("gives the arguments' JSON Schema for every target other runtimes ask for", () => {
    const { input } = toolSchemas(weather);
    const draft07 = input["~standard"].jsonSchema.input({ target: "draft-07" });
    expect(draft07).toEqual({
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: {
        city: { type: "string" },
        days: { type: "integer", minimum: 1, maximum: 7 },
        from: { type: "string", format: "date-time" },
      },
      required: ["city", "days", "from"],
      additionalProperties: false,
    });
  });

  it("works for a hand-written tool, which has no output unless it declares one", async () => {
    const add = tool({
      name: "add",
      description: "Add two numbers.",
      parameters: {
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
      },
      execute: ({ a, b }) => a + b,
    });
    const { input, output } = toolSchemas(add);
    expect(output).toBeUndefined();
    expect(await input["~standard"].validate({ a: 1, b: "2" })).toEqual({ value: { a: 1, b: 2 } });
    expect(input.name).toBe("add");
  });
});
