import { describe, expect, it } from "vitest";
import { coerce } from "../../src/repair/coerce.js";
import type { Repair } from "../../src/repair/repair.js";

const schema = {
  type: "object",
  properties: {
    qty: { type: "integer" },
    note: { type: "string" },
    line: { type: "object", properties: { gift: { type: "boolean" } } },
    tags: { type: "array", items: { type: "string" } },
  },
};

describe("coerce", () => {
  it("returns the value itself when nothing needs repairing", () => {
    const value = { qty: 1, note: "x", line: { gift: true }, tags: ["a"] };
    const repairs: Repair[] = [];
    expect(coerce(value, schema, schema, "", repairs)).toBe(value);
    expect(repairs).toEqual([]);
  });

  it("copies only the containers on the way to a repair, and never changes the value", () => {
    const value = Object.freeze({
      qty: 1,
      note: null,
      line: Object.freeze({ gift: "true" }),
      tags: Object.freeze(["a"]),
    });
    const repairs: Repair[] = [];
    const fixed = coerce(value, schema, schema, "", repairs) as Record<string, unknown>;
    expect(fixed).toEqual({ qty: 1, line: { gift: true }, tags: ["a"] });
    expect(fixed).not.toBe(value);
    expect(fixed.line).not.toBe(value.line);
    expect(fixed.tags).toBe(value.tags);
    expect(value).toEqual({ qty: 1, note: null, line: { gift: "true" }, tags: ["a"] });
    expect(repairs).toEqual([
      { kind: "null_dropped", path: "/note" },
      { kind: "string_to_boolean", path: "/line/gift" },
    ]);
  });

  it("decodes JSON text of an array only when it opens like one, leading spaces allowed", () => {
    const repairs: Repair[] = [];
    expect(coerce({ tags: ' ["a"]' }, schema, schema, "", repairs)).toEqual({ tags: ["a"] });
    expect(coerce({ tags: "a" }, schema, schema, "", repairs)).toEqual({ tags: "a" });
    expect(repairs).toEqual([{ kind: "json_string_decoded", path: "/tags" }]);
  });
});
