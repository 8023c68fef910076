import { describe, expect, it } from "vitest";
import { type CompiledSpec, SPEC_VERSION, tool, validateArguments } from "../../src/index.js";
import type { GeneratedValidator } from "../../src/tools/spec.js";

const PARAMETERS = {
  type: "object",
  properties: { city: { type: "string" }, when: { type: "string", format: "date-time", "x-toolwright-date": true } },
  required: ["city"],
  additionalProperties: false,
};

/** A factory as the compiler writes one (a check, without a reader or collector), counting how often it is made. */
function countedFactory(): { factory: GeneratedValidator; made: () => number; checked: () => number } {
  let made = 0;
  let checked = 0;
  const factory: GeneratedValidator = () => {
    made++;
    return (v: unknown) => {
      checked++;
      const args = v as { city?: unknown; when?: unknown };
      return typeof v === "object" && v !== null && typeof args.city === "string";
    };
  };
  return { factory, made: () => made, checked: () => checked };
}

function weatherTool(validator: GeneratedValidator) {
  const spec = {
    $toolwright: SPEC_VERSION,
    name: "weather",
    description: "Weather in a city.",
    parameters: PARAMETERS,
    slots: [{ kind: "arg", name: "city" }],
    flags: {},
    source: { file: "tools.ts", line: 1 },
    validator,
  } as CompiledSpec;
  return tool((city: string) => city, undefined, spec);
}

describe("the compiler's check of a tool's parameters", () => {
  it("is made once, on the first call, and decides every call", () => {
    const { factory, made, checked } = countedFactory();
    const weather = weatherTool(factory);
    expect(made()).toBe(0);
    for (const city of ["Paris", "Oslo", "Lima"])
      expect(validateArguments(weather, { city })).toMatchObject({ ok: true });
    expect(made()).toBe(1);
    expect(checked()).toBe(3);
  });

  it("is made once for a factory someone froze, too", () => {
    const { factory, made } = countedFactory();
    const weather = weatherTool(Object.freeze(factory));
    for (const city of ["Paris", "Oslo", "Lima"]) validateArguments(weather, { city });
    expect(made()).toBe(1);
  });

  it("leaves the call to Ajv when the factory throws, and is not tried again", () => {
    let made = 0;
    const weather = weatherTool(() => {
      made++;
      throw new Error("needs a helper this runtime lacks");
    });
    expect(validateArguments(weather, { city: "Paris" })).toMatchObject({ ok: true, args: { city: "Paris" } });
    const rejected = validateArguments(weather, { city: 5 });
    expect(rejected.ok).toBe(false);
    expect(!rejected.ok && rejected.error.message).toContain("/city: expected string, got 5 (a number)");
    expect(made).toBe(1);
  });

  it("still revives the Dates its schema marks", () => {
    const weather = weatherTool(countedFactory().factory);
    const check = validateArguments(weather, { city: "Paris", when: "2026-12-01T08:00:00Z" });
    expect(check.ok && (check.args as { when: unknown }).when).toEqual(new Date("2026-12-01T08:00:00Z"));
    expect(validateArguments(weather, { city: "Paris" })).toMatchObject({ ok: true, args: { city: "Paris" } });
  });
});
