import { describe, expect, it } from "vitest";
import { asTool, type Tool, validateArguments } from "../../src/index.js";

const circle = {
  type: "object",
  properties: { kind: { const: "circle" }, radius: { type: "number", minimum: 0 } },
  required: ["kind", "radius"],
  additionalProperties: false,
};
const rect = {
  type: "object",
  properties: { kind: { const: "rect" }, w: { type: "number" }, h: { type: "number" } },
  required: ["kind", "w", "h"],
  additionalProperties: false,
};

const draw: Tool = asTool({
  name: "draw",
  description: "Draw a shape for a pet.",
  execute: () => "drawn",
  parameters: {
    type: "object",
    properties: {
      shape: { anyOf: [{ $ref: "#/$defs/Circle" }, rect] },
      shapes: { type: "array", items: { oneOf: [circle, rect] } },
      pet: {
        anyOf: [
          {
            type: "object",
            properties: { name: { type: "string" }, barks: { type: "boolean" } },
            required: ["name", "barks"],
            additionalProperties: false,
          },
          {
            type: "object",
            properties: { name: { type: "string" }, meows: { type: "boolean" }, lives: { type: "integer" } },
            required: ["name", "meows"],
            additionalProperties: false,
          },
        ],
      },
      label: { anyOf: [{ type: "string", minLength: 3 }, { type: "null" }] },
    },
    additionalProperties: false,
    $defs: { Circle: circle },
  },
});

function problems(args: unknown): string[] {
  const check = validateArguments(draw, args);
  return check.ok ? [] : check.error.issues.map((i) => i.message);
}

describe("feedback on unions names the branch the model chose (issue 11)", () => {
  it("reports the violations of the branch named by the discriminator, through $ref too", () => {
    expect(problems({ shape: { kind: "circle", radius: -1, extra: 1 } })).toEqual([
      '/shape: unexpected key "extra"; accepted keys in /shape: kind, radius (for kind "circle")',
      '/shape/radius: must be >= 0, got -1 (a number) (for kind "circle")',
    ]);
    expect(problems({ shape: { kind: "rect", w: 1 } })).toEqual([
      '/shape: missing required key "h" (number) (for kind "rect")',
    ]);
  });

  it("does the same inside arrays of a oneOf", () => {
    expect(
      problems({
        shapes: [
          { kind: "circle", radius: 1 },
          { kind: "rect", w: 1, h: "2" },
        ],
      }),
    ).toEqual(['/shapes/1/h: expected number, got "2" (a string) (for kind "rect")']);
  });

  it("keeps telling branches apart past the cap on listed errors", () => {
    const many = Array.from({ length: 3000 }, () => ({ kind: "circle", radius: "x" }));
    const found = problems({ shapes: many });
    expect(found).toHaveLength(200);
    expect(
      found.every((p, i) => p === `/shapes/${i}/radius: expected number, got "x" (a string) (for kind "circle")`),
    ).toBe(true);
  });

  it("says which values the discriminator takes when it names no branch, or is missing", () => {
    expect(problems({ shape: { kind: "hex" } })).toEqual([
      '/shape/kind: expected one of "circle", "rect", got "hex" (a string)',
    ]);
    expect(problems({ shape: { radius: 1 } })).toEqual([
      '/shape: missing required key "kind" (one of "circle", "rect"), which says which shape this is',
    ]);
  });

  it("reports the closest branch when there is no discriminator", () => {
    expect(problems({ pet: { name: "Tom", meows: "yes", lives: 9 } })).toEqual([
      '/pet/meows: expected boolean, got "yes" (a string) (closest of the 2 allowed shapes at /pet: the one with keys name, meows, lives)',
    ]);
  });

  it("reports the one branch of the value's type, and 'expected A or B' for a value of no branch's type", () => {
    expect(problems({ label: "ab" })).toEqual(['/label: must have at least 3 characters, got "ab" (a string)']);
    expect(problems({ label: 5 })).toEqual(["/label: expected string or null, got 5 (a number)"]);
  });

  it("never says 'object or object'", () => {
    const check = validateArguments(draw, { shape: 1 });
    expect(!check.ok && check.error.message).toContain("/shape: expected object, got 1 (a number)");
    expect(!check.ok && check.error.message).not.toContain("object or object");
  });
});
