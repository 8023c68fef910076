import { describe, expect, it } from "vitest";
import { asTool, validateArguments } from "../../src/index.js";

/** The issue lines for `value` under a schema with one property `v`. */
function problems(v: Record<string, unknown>, value: unknown): string[] {
  const tool = asTool({
    name: "t",
    description: "d",
    parameters: { type: "object", properties: { v }, $defs: { Id: { type: "string", minLength: 3 } } },
    execute: () => 1,
  });
  const check = validateArguments(tool, { v: value });
  return check.ok ? [] : check.error.issues.map((i) => i.message);
}

describe("issues: each failed keyword in plain words, never Ajv's text", () => {
  it.each([
    [{ type: "integer", minimum: 1 }, 0, "/v: must be >= 1, got 0 (a number)"],
    [{ type: "number", exclusiveMaximum: 10 }, 10, "/v: must be < 10, got 10 (a number)"],
    [{ type: "number", multipleOf: 5 }, 7, "/v: must be a multiple of 5, got 7 (a number)"],
    [{ type: "string", minLength: 1 }, "", '/v: must have at least 1 character, got "" (a string)'],
    [{ type: "string", maxLength: 2 }, "abc", '/v: must have at most 2 characters, got "abc" (a string)'],
    [{ type: "string", format: "uuid" }, "x", '/v: must be a valid uuid, got "x" (a string)'],
    [{ type: "array", maxItems: 1 }, [1, 2], "/v: must have at most 1 item, got an array of 2 items"],
    [
      { type: "array", uniqueItems: true },
      [1, 1],
      "/v: must not repeat items (items 0 and 1 are equal), got an array of 2 items",
    ],
    [
      { type: "array", prefixItems: [{ type: "string" }], items: false },
      ["a", "b"],
      "/v: must have at most 1 item, got an array of 2 items",
    ],
    [
      { type: "array", contains: { type: "string" } },
      [1],
      "/v: must contain at least 1 matching item, got an array of 1 item",
    ],
    [{ type: "object", minProperties: 2 }, { a: 1 }, '/v: must have at least 2 keys, got an object with key "a"'],
    [
      { type: "object", propertyNames: { pattern: "^[a-z]+$" } },
      { A: 1 },
      '/v: has a key that is not allowed: "A", got an object with key "A"',
    ],
    [
      { type: "object", dependentRequired: { a: ["b"] } },
      { a: 1 },
      '/v: must also have "b" when "a" is given, got an object with key "a"',
    ],
    [{ not: { type: "string" } }, "s", '/v: must not match the excluded shape, got "s" (a string)'],
    [{ const: "yes" }, "no", '/v: expected exactly "yes", got "no" (a string)'],
    [{ $ref: "#/$defs/Id" }, "ab", '/v: must have at least 3 characters, got "ab" (a string)'],
    [{ type: "array", items: { type: "string" } }, "x", '/v: expected array of string, got "x" (a string)'],
  ])("%j with %j", (schema, value, expected) => {
    expect(problems(schema, value)).toContain(expected);
  });

  it("folds the errors inside a failed anyOf into one expected-either issue", () => {
    const union = {
      anyOf: [
        { type: "string", minLength: 2 },
        { type: "array", items: { type: "integer" } },
      ],
    };
    expect(problems(union, 5)).toEqual(["/v: expected string or array of integer, got 5 (a number)"]);
  });

  it("says when a value matches more than one oneOf branch", () => {
    expect(problems({ oneOf: [{ type: "number" }, { type: "integer" }] }, 1)).toEqual([
      "/v: matches more than one of the allowed shapes; make it match exactly one, got 1 (a number)",
    ]);
  });

  it("drops the if-rule error and keeps the failing then-rule", () => {
    // biome-ignore lint/suspicious/noThenProperty: "then" is the JSON Schema keyword under test, not a thenable
    const conditional = { type: "object", if: { required: ["a"] }, then: { required: ["b"] } };
    expect(problems(conditional, { a: 1 })).toEqual(['/v: missing required key "b"']);
  });
});
