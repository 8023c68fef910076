import { describe, expect, it } from "vitest";
import { type CompiledSpec, SPEC_VERSION, tool, validateArguments } from "../../src/index.js";
import { parseAnthropicMessage } from "../../src/providers/anthropic-parse.js";
import { GeminiTurn } from "../../src/providers/gemini-turn.js";
import { isParsedArguments, parsedArguments } from "../../src/validation/parsed-arguments.js";

const parameters = {
  type: "object",
  properties: {
    city: { type: "string" },
    days: { type: "integer", maximum: 7 },
    stops: { type: "array", items: { type: "object", properties: { at: { type: "string" } }, required: ["at"] } },
  },
  required: ["city"],
  additionalProperties: false,
} as const;

function forecastWith(validator?: CompiledSpec["validator"]) {
  const spec = {
    $toolwright: SPEC_VERSION,
    name: "forecast",
    description: "The forecast.",
    parameters,
    slots: [{ kind: "object" }],
    flags: {},
    source: { file: "weather.ts", line: 3 },
    ...(validator ? { validator } : {}),
  } as CompiledSpec;
  return tool((_args: unknown) => "sunny", undefined, spec);
}

// A check as the compiler would generate it for `parameters` (enough for these values).
const generated: CompiledSpec["validator"] = () => (v) => {
  const o = v as Record<string, unknown>;
  return (
    typeof o === "object" &&
    o !== null &&
    typeof o.city === "string" &&
    (o.days === undefined || (Number.isInteger(o.days) && (o.days as number) <= 7)) &&
    Object.keys(o).every((k) => k === "city" || k === "days" || k === "stops")
  );
};

const deeplyFrozen = (value: unknown): boolean =>
  typeof value !== "object" || value === null || (Object.isFrozen(value) && Object.values(value).every(deeplyFrozen));

describe.each([
  ["a compiled tool whose check has no reader", forecastWith(generated)],
  ["a tool checked by Ajv", forecastWith()],
])("arguments the runtime parsed itself, for %s", (_, forecast) => {
  it("are checked and frozen in place, not copied", () => {
    const args = parsedArguments({ city: "Paris", stops: [{ at: "Lyon" }] });
    const check = validateArguments(forecast, args);
    expect(check.ok && check.args).toBe(args);
    expect(deeplyFrozen(args)).toBe(true);
  });

  it("are repaired into a copy, leaving the parsed value as it was", () => {
    const args = parsedArguments({ city: "Paris", days: "3" });
    const check = validateArguments(forecast, args);
    expect(check.ok && check.args).toEqual({ city: "Paris", days: 3 });
    expect(args).toEqual({ city: "Paris", days: "3" });
  });

  it("are never confused with a caller's object, which is copied and left unfrozen", () => {
    const mine = { city: "Paris", stops: [{ at: "Lyon" }] };
    const check = validateArguments(forecast, mine);
    expect(check.ok && check.args).not.toBe(mine);
    expect(check.ok && deeplyFrozen(check.args)).toBe(true);
    expect(Object.isFrozen(mine) || Object.isFrozen(mine.stops)).toBe(false);
  });
});

describe("arguments the runtime parsed itself, for a compiled tool with a reader", () => {
  // A reader as the compiler writes one (reader-source.ts): the check and a frozen copy in one pass.
  const read = (v: unknown): object | false => {
    const o = v as { city?: unknown };
    return typeof o === "object" && o !== null && typeof o.city === "string" && Object.keys(o).length === 1
      ? Object.freeze({ city: o.city })
      : false;
  };
  const withReader: CompiledSpec["validator"] = () => Object.assign((v: unknown) => read(v) !== false, { read });

  it("get the reader's frozen copy; the parsed value is left as it was", () => {
    const args = parsedArguments({ city: "Paris" });
    const check = validateArguments(forecastWith(withReader), args);
    expect(check.ok && check.args).toEqual({ city: "Paris" });
    expect(check.ok && check.args).not.toBe(args);
    expect(check.ok && Object.isFrozen(check.args)).toBe(true);
    expect(Object.isFrozen(args)).toBe(false);
  });
});

describe("providers mark the arguments objects they parse", () => {
  it("Anthropic: a tool_use block's input", () => {
    const input = { city: "Paris" };
    const response = parseAnthropicMessage({
      content: [{ type: "tool_use", id: "toolu_1", name: "forecast", input }],
      stop_reason: "tool_use",
    });
    expect(response.message.toolCalls?.[0]?.arguments).toBe(input);
    expect(isParsedArguments(input)).toBe(true);
  });

  it("Gemini: a functionCall part's args", () => {
    const args = { city: "Paris" };
    const turn = new GeminiTurn();
    turn.add({ candidates: [{ content: { parts: [{ functionCall: { name: "forecast", args } }] } }] });
    expect(turn.result().message.toolCalls?.[0]?.arguments).toBe(args);
    expect(isParsedArguments(args)).toBe(true);
  });

  it("nothing else: a plain object is not marked", () => {
    expect(isParsedArguments({ city: "Paris" })).toBe(false);
    expect(isParsedArguments("{}")).toBe(false);
  });
});
