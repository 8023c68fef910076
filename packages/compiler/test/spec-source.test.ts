import type { ToolSpec } from "toolwright";
import { describe, expect, it } from "vitest";
import { specSource, ValidatorTexts } from "../src/spec-source.js";
import { validatorSource } from "../src/validator/validator-source.js";

const spec: ToolSpec = {
  $toolwright: 1,
  name: "get_weather",
  description: "Current weather for a city.",
  parameters: {
    type: "object",
    properties: { city: { type: "string", minLength: 1 } },
    required: ["city"],
    additionalProperties: false,
  },
  outputSchema: { type: "object", properties: { celsius: { type: "number" } }, required: ["celsius"] },
  slots: [{ kind: "arg", name: "city" }],
  flags: { readOnly: true },
  source: { file: "weather.ts", line: 3 },
};

function evaluate(source: string): ToolSpec {
  return new Function(`return (${source});`)() as ToolSpec;
}

describe("specSource", () => {
  it("writes the spec's JSON unchanged, plus a generated validator for each schema in the subset", () => {
    for (const space of [undefined, 2]) {
      const written = evaluate(specSource(spec, space));
      expect(JSON.stringify(written, null, space)).toBe(JSON.stringify(spec, null, space));
      expect(typeof written.validator).toBe("function");
      expect(typeof written.outputValidator).toBe("function");
    }
  });

  it("gives the parameters' check an issue collector and the output schema's none (Ajv words a wrong return value)", () => {
    const written = evaluate(specSource(spec));
    expect(written.validator?.toString()).toContain(".issues=");
    expect(written.outputValidator?.toString()).not.toContain(".issues=");
  });

  it("writes checks that accept and reject as the schemas say", () => {
    const written = evaluate(specSource(spec));
    const helpers = {
      len: (s: string) => [...s].length,
      equal: Object.is,
      unique: () => true,
      format: () => () => true,
      issue: () => {},
      child: () => {},
      object: () => true,
      path: (path: string, key: string) => `${path}/${key}`,
    };
    const parameters = written.validator?.(helpers, spec.parameters);
    const output = written.outputValidator?.(helpers, spec.outputSchema ?? {});
    expect([{ city: "Paris" }, { city: "" }, { city: "Paris", extra: 1 }, {}].map((v) => parameters?.(v))).toEqual([
      true,
      false,
      false,
      false,
    ]);
    expect(
      [{ celsius: 21.5 }, { celsius: "21" }, { celsius: Number.POSITIVE_INFINITY }].map((v) => output?.(v)),
    ).toEqual([true, false, false]);
  });

  it("writes plain JSON when no schema is in the subset, so Ajv checks that tool", () => {
    const outside: ToolSpec = {
      ...spec,
      parameters: { type: "object", properties: { readings: { type: "array", contains: { type: "number" } } } },
      outputSchema: { type: "array", contains: { type: "number" } },
    };
    expect(specSource(outside)).toBe(JSON.stringify(outside));
  });
});

describe("ValidatorTexts", () => {
  it("gives an equal schema with the same options the text the generator writes for it", () => {
    const texts = new ValidatorTexts();
    const copy = structuredClone(spec.parameters);
    for (const options of [
      { typescript: false },
      { typescript: true },
      { issues: false, read: false, typescript: false },
      { issues: false, typescript: true },
    ]) {
      const written = validatorSource(spec.parameters, options);
      expect(texts.of(spec.parameters, options)).toBe(written);
      expect(texts.of(copy, options)).toBe(written);
    }
    expect(texts.of({ ...copy, required: [] }, { typescript: false })).toBe(
      validatorSource({ ...copy, required: [] }, {}),
    );
  });

  it("keeps a schema outside the subset outside it", () => {
    const texts = new ValidatorTexts();
    const outside = { type: "array", contains: { type: "number" } } as const;
    expect(texts.of(outside, { typescript: false })).toBeUndefined();
    expect(texts.of(outside, { typescript: false })).toBeUndefined();
  });

  it("writes the same spec source with or without one shared across specs", () => {
    const texts = new ValidatorTexts();
    const other: ToolSpec = { ...spec, name: "get_forecast" };
    expect(specSource(spec, 2, { typescript: true, texts })).toBe(specSource(spec, 2, { typescript: true }));
    expect(specSource(other, 2, { typescript: true, texts })).toBe(specSource(other, 2, { typescript: true }));
  });
});
