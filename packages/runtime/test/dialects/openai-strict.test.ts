import { describe, expect, it } from "vitest";
import { openAiStrictDialect } from "../../src/dialects/index.js";

const weather = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: {
    city: { type: "string", minLength: 2, description: "City name." },
    units: { type: "string", enum: ["c", "f"], default: "c" },
    days: { type: "integer", minimum: 1 },
    at: { $ref: "#/$defs/When" },
  },
  required: ["city"],
  additionalProperties: false,
  $defs: {
    When: { type: "object", properties: { iso: { type: "string", format: "uri" } }, additionalProperties: false },
  },
};

describe("openAiStrictDialect", () => {
  it("makes every key required and the optional ones nullable", () => {
    const { schema } = openAiStrictDialect.toDialect(weather);
    expect(schema.required).toEqual(["city", "units", "days", "at"]);
    const props = schema.properties as Record<string, Record<string, unknown>>;
    expect(props.city?.type).toBe("string");
    expect(props.units).toMatchObject({ type: ["string", "null"], enum: ["c", "f", null] });
    expect(props.days).toMatchObject({ type: ["integer", "null"], minimum: 1 });
    expect(props.at).toEqual({ anyOf: [{ $ref: "#/$defs/When" }, { type: "null" }] });
    expect(schema.$schema).toBeUndefined();
  });

  it("moves unsupported keywords into the description and closes nested objects", () => {
    const { schema, notes } = openAiStrictDialect.toDialect(weather);
    const props = schema.properties as Record<string, Record<string, unknown>>;
    expect(props.city).toEqual({ type: "string", description: "City name. (minLength: 2)" });
    expect(props.units?.default).toBeUndefined();
    const when = (schema.$defs as Record<string, Record<string, unknown>>).When;
    expect(when).toMatchObject({ required: ["iso"], additionalProperties: false });
    expect(notes.some((n) => n.code === "keyword-moved" && n.path === "/properties/city")).toBe(true);
    expect(openAiStrictDialect.check(weather)).toEqual([]);
  });

  it("reports what strict mode cannot take", () => {
    const record = {
      type: "object",
      properties: { tags: { type: "object", additionalProperties: { type: "string" } } },
    };
    expect(openAiStrictDialect.check(record).map((n) => n.code)).toEqual(["open-object"]);
    expect(openAiStrictDialect.check({ anyOf: [{ type: "object" }] }).map((n) => n.code)).toContain("root-not-object");
    const deep = Array.from({ length: 12 }).reduce<Record<string, unknown>>(
      (inner) => ({ type: "object", properties: { x: inner }, required: ["x"], additionalProperties: false }),
      { type: "string" },
    );
    expect(openAiStrictDialect.check(deep).map((n) => n.code)).toEqual(["limit-nesting"]);
    const huge = { type: "object", properties: { e: { enum: Array.from({ length: 1001 }, (_, i) => `v${i}`) } } };
    expect(openAiStrictDialect.check(huge).map((n) => n.code)).toContain("limit-enum-values");
  });
});
