import { describe, expect, it } from "vitest";
import { diffSchemas } from "../../src/cli/schema-diff.js";

// The narrowing rules of `toolwright check` on schemas alone: a change is breaking when
// some arguments the old schema accepted may now be rejected.

const object = (properties: Record<string, unknown>, required: string[] = [], extra: Record<string, unknown> = {}) => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
  ...extra,
});

const summary = (before: Record<string, unknown>, after: Record<string, unknown>) =>
  diffSchemas(before, after).map((c) => `${c.breaking ? "breaking" : "additive"}: ${c.message}`);

describe("diffSchemas", () => {
  it("finds nothing in identical schemas, whatever the key order", () => {
    const a = object({ q: { type: "string", minLength: 1 } }, ["q"]);
    const b = {
      additionalProperties: false,
      required: ["q"],
      properties: { q: { minLength: 1, type: "string" } },
      type: "object",
    };
    expect(diffSchemas(a, b)).toEqual([]);
  });

  it("follows nested objects and arrays with their paths", () => {
    const before = object({
      filter: object({ from: { type: "string" }, to: { type: "string" } }, ["from"]),
      tags: { type: "array", items: { type: "string", enum: ["a", "b"] } },
    });
    const after = object({
      filter: object({ from: { type: "string" } }, ["from"]),
      tags: { type: "array", items: { type: "string", enum: ["a"] } },
    });
    expect(diffSchemas(before, after)).toEqual([
      { breaking: true, path: "filter.to", message: 'property "filter.to" removed' },
      { breaking: true, path: "tags.[]", message: 'items of parameter "tags": enum value "b" removed' },
    ]);
  });

  it("compares union members one by one: a removed member narrows, an added one widens", () => {
    const before = object({ id: { anyOf: [{ type: "string" }, { type: "number" }] } });
    expect(summary(before, object({ id: { type: "string" } }))).toEqual([
      'breaking: parameter "id": type narrowed: no longer accepts number',
    ]);
    expect(
      summary(before, object({ id: { anyOf: [{ type: "string" }, { type: "number" }, { type: "null" }] } })),
    ).toEqual(['additive: parameter "id": now also accepts null']);
  });

  it("treats type lists and integer/number like JSON Schema does", () => {
    const nullable = object({ n: { type: ["number", "null"] } });
    expect(summary(nullable, object({ n: { type: "number" } }))).toEqual([
      'breaking: parameter "n": type narrowed from number | null to number',
    ]);
    expect(summary(object({ n: { type: "integer" } }), object({ n: { type: "number" } }))).toEqual([
      'additive: parameter "n": type widened from integer to number',
    ]);
    expect(summary(object({ n: { type: "number" } }), object({ n: { type: "integer" } }))).toEqual([
      'breaking: parameter "n": type narrowed from number to integer',
    ]);
  });

  it("flags new patterns, formats and bounds, and passes removed ones", () => {
    const before = object({ s: { type: "string", maxLength: 10 } });
    const after = object({ s: { type: "string", pattern: "^[a-z]+$", format: "email" } });
    expect(summary(before, after)).toEqual([
      'additive: parameter "s": maxLength 10 removed',
      'breaking: parameter "s": pattern "^[a-z]+$" added',
      'breaking: parameter "s": format "email" added',
    ]);
  });

  it("resolves $defs references and stops on recursive types", () => {
    const tree = (leaf: unknown) => ({
      ...object({ root: { $ref: "#/$defs/Node" } }, ["root"]),
      $defs: { Node: object({ label: leaf, children: { type: "array", items: { $ref: "#/$defs/Node" } } }, ["label"]) },
    });
    expect(summary(tree({ type: "string" }), tree({ type: "string", enum: ["x"] }))).toEqual([
      'breaking: property "root.label": now limited to "x"',
    ]);
  });

  it("flags closing an object to extra keys, and passes opening it", () => {
    const open = { type: "object", properties: { a: { type: "string" } }, additionalProperties: { type: "string" } };
    const closed = object({ a: { type: "string" } });
    expect(summary(open, closed)).toEqual(["breaking: arguments: no longer accepts extra keys"]);
    expect(summary(closed, open)).toEqual(["additive: arguments: now accepts extra keys"]);
  });
});
