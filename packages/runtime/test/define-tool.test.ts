import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type ToolContext, ToolDefinitionError, tool, validateArguments } from "../src/index.js";

describe("tool({ name, description, parameters, execute }) with JSON Schema", () => {
  const add = tool({
    name: "add",
    description: "Add two numbers.",
    parameters: {
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
      additionalProperties: false,
    },
    readOnly: true,
    timeoutMs: 1_000,
    execute: ({ a, b }, ctx: ToolContext) => `${ctx.toolName}: ${a + b}`,
  });

  it("exposes the given schema and flags", () => {
    expect(add.name).toBe("add");
    expect(add.flags).toEqual({ readOnly: true });
    expect(add.timeoutMs).toBe(1_000);
    expect(add.parameters.required).toEqual(["a", "b"]);
  });

  it("validates, repairs and runs like a compiled tool", async () => {
    expect((await add.invoke('{"a": 1, "b": "2",}')).content).toBe("add: 3");
    await expect(add.invoke({ a: 1 })).rejects.toThrow('missing required key "b" (number)');
  });

  it("refuses a schema that is not an object schema", () => {
    expect(() => tool({ name: "bad", description: "d", parameters: { type: "string" }, execute: () => 1 })).toThrow(
      ToolDefinitionError,
    );
  });
});

describe("tool({ ... }) with a Standard Schema (zod 4)", () => {
  const schema = z.object({
    city: z.string().min(2),
    days: z.number().int().max(7).default(3),
    units: z.enum(["metric", "imperial"]).optional(),
  });
  const forecast = tool({
    name: "forecast",
    description: "Weather forecast for a city.",
    parameters: schema,
    execute: (args) => {
      // The schema's output type: `days` is always present after zod applies the default.
      const days: number = args.days;
      return { city: args.city.toUpperCase(), days, frozen: Object.isFrozen(args) };
    },
  });

  it("derives the JSON Schema from the zod schema", () => {
    expect(forecast.parameters).toMatchObject({
      type: "object",
      properties: { city: { type: "string", minLength: 2 }, units: { enum: ["metric", "imperial"] } },
      required: ["city"],
    });
    expect(forecast.parameters.$schema).toBeUndefined();
  });

  it("gives JSON Schema feedback before zod runs", () => {
    const check = validateArguments(forecast, { city: "P", days: 30 });
    expect(!check.ok && check.error.issues.map((i) => i.message)).toEqual([
      '/city: must have at least 2 characters, got "P" (a string)',
      "/days: must be <= 7, got 30 (a number)",
    ]);
  });

  it("runs zod's own parse (defaults applied) and passes frozen output to execute", async () => {
    expect((await forecast.invoke({ city: "Paris" })).value).toEqual({ city: "PARIS", days: 3, frozen: true });
    expect((await forecast.invoke({ city: "Oslo", days: "2" })).value).toEqual({ city: "OSLO", days: 2, frozen: true });
  });

  it("reports a zod refinement JSON Schema cannot express as invalid arguments", async () => {
    const even = tool({
      name: "even",
      description: "Takes an even number.",
      parameters: z.object({ n: z.number().refine((n) => n % 2 === 0, "must be even") }),
      execute: ({ n }) => n,
    });
    await expect(even.invoke({ n: 3 })).rejects.toMatchObject({
      outcome: "invalid_arguments",
      message:
        'Invalid arguments for tool "even":\n- /n: must be even\nAccepted keys: n (number, required).\nFix the arguments and call even again.',
    });
  });

  it("asks for a JSON Schema when a Standard Schema cannot give one", () => {
    const opaque = { "~standard": { version: 1 as const, vendor: "acme", validate: (value: unknown) => ({ value }) } };
    expect(() => tool({ name: "opaque", description: "d", parameters: opaque, execute: () => 1 })).toThrow(
      /its acme schema cannot produce a JSON Schema.*z\.toJSONSchema/,
    );
  });
});
