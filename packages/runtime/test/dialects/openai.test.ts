import { describe, expect, it } from "vitest";
import { dialectOfTarget, dialects, isStrictResult } from "../../src/dialects/index.js";
import type { JsonSchema } from "../../src/tools/spec.js";

// "openai" names one thing everywhere (targets, `toolwright print --dialect`, this module,
// the OpenAI providers): strict mode, and non-strict for a tool strict mode refuses.
// "openai-strict" and "openai-nonstrict" each name one mode.

const fits: JsonSchema = {
  type: "object",
  properties: { city: { type: "string" }, days: { type: "integer" } },
  required: ["city"],
  additionalProperties: false,
};

const open: JsonSchema = {
  type: "object",
  properties: { headers: { type: "object", additionalProperties: { type: "string" } } },
  required: ["headers"],
  additionalProperties: false,
};

describe("the openai dialect names", () => {
  it("openai sends strict mode when the schema fits it", () => {
    const result = dialects.openai.toDialect(fits);
    expect(isStrictResult(result)).toBe(true);
    expect(result).toEqual(dialects["openai-strict"].toDialect(fits));
    expect(dialects.openai.check(fits)).toEqual([]);
  });

  it("openai sends a schema strict mode refuses non-strict, with a warning saying so", () => {
    const result = dialects.openai.toDialect(open);
    expect(isStrictResult(result)).toBe(false);
    expect(result.schema).toEqual(dialects["openai-nonstrict"].toDialect(open).schema);
    expect(result.notes).toEqual([
      expect.objectContaining({
        severity: "warning",
        code: "strict-fallback",
        path: "/properties/headers",
        message: expect.stringMatching(
          /^sent with strict: false, so OpenAI does not constrain this tool's arguments: /,
        ),
      }),
    ]);
    // A target "openai" is therefore met (warnings are not build errors); "openai-strict" is not.
    expect(dialects.openai.check(open).filter((n) => n.severity === "error")).toEqual([]);
    expect(dialects["openai-strict"].check(open).filter((n) => n.severity === "error")).toHaveLength(1);
  });

  it("openai-nonstrict never rewrites into strict mode", () => {
    expect(dialects["openai-nonstrict"].toDialect(fits).schema).toEqual(fits);
  });

  it("every name resolves to itself: no provider alias means a different dialect", () => {
    for (const name of Object.keys(dialects)) expect(dialectOfTarget(name)).toBe(name);
    expect(dialectOfTarget("cohere")).toBeUndefined();
  });
});
