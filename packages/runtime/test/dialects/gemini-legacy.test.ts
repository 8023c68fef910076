import { describe, expect, it } from "vitest";
import { geminiLegacyDialect } from "../../src/dialects/index.js";

describe("geminiLegacyDialect", () => {
  it("inlines non-recursive refs, rewrites type arrays and enums, stringifies int64 limits", () => {
    const { schema, notes } = geminiLegacyDialect.toDialect({
      type: "object",
      properties: {
        at: { $ref: "#/$defs/Place" },
        note: { type: ["string", "null"], maxLength: 40 },
        level: { enum: [1, 2, 3] },
        id: { anyOf: [{ type: "string" }, { type: "number" }] },
        gt: { type: "number", exclusiveMinimum: 0 },
      },
      required: ["at"],
      additionalProperties: false,
      $defs: { Place: { type: "object", properties: { lat: { type: "number" } }, required: ["lat"] } },
    });
    expect(schema).toEqual({
      type: "OBJECT",
      properties: {
        at: { type: "OBJECT", properties: { lat: { type: "NUMBER" } }, required: ["lat"] },
        note: { type: "STRING", nullable: true, maxLength: "40" },
        level: { type: "STRING", enum: ["1", "2", "3"] },
        id: { anyOf: [{ type: "STRING" }, { type: "NUMBER" }] },
        gt: { type: "NUMBER", description: "(exclusiveMinimum: 0)" },
      },
      required: ["at"],
    });
    expect(notes.filter((n) => n.severity === "error")).toEqual([]);
  });

  it("reports recursion as an error, with the path", () => {
    const tree = {
      type: "object",
      properties: { root: { $ref: "#/$defs/Node" } },
      $defs: { Node: { type: "object", properties: { children: { type: "array", items: { $ref: "#/$defs/Node" } } } } },
    };
    const problems = geminiLegacyDialect.check(tree);
    expect(problems.map((n) => [n.code, n.path])).toEqual([["recursive-ref", "/properties/root"]]);
  });
});
