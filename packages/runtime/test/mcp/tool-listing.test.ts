import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { describeTool, outputShapeOf } from "../../src/mcp/tool-listing.js";
import type { Tool } from "../../src/tools/tool-types.js";

function withOutput(outputSchema: Tool["outputSchema"]): Tool {
  return {
    name: "t",
    description: "A test tool.",
    parameters: { type: "object", properties: {}, additionalProperties: false },
    ...(outputSchema ? { outputSchema } : {}),
    flags: {},
    execute: () => undefined,
  };
}

describe("describeTool's inputSchema", () => {
  it("keeps the $schema of a hand-written schema, so a draft-07 schema is not announced as 2020-12", () => {
    const parameters = {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: { point: { type: "array", items: [{ type: "number" }, { type: "number" }] } },
      required: ["point"],
    };
    expect(describeTool({ ...withOutput(undefined), parameters }).inputSchema).toEqual(parameters);
  });

  it("sends a schema that names no draft without one (MCP's default, 2020-12)", () => {
    expect(describeTool(withOutput(undefined)).inputSchema).toEqual({
      type: "object",
      properties: {},
      additionalProperties: false,
    });
  });
});

describe("outputShapeOf", () => {
  it("sends an object return type as it is", () => {
    const schema = { type: "object", properties: { n: { type: "number" } }, required: ["n"] };
    expect(outputShapeOf(withOutput(schema))).toEqual({ schema, wrapped: false });
  });

  it("wraps a recursive array type, keeping $defs at the root so its $refs resolve", () => {
    const tree = {
      type: "array",
      items: { $ref: "#/$defs/Node" },
      $defs: {
        Node: {
          type: "object",
          properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/Node" } } },
          required: ["name", "children"],
          additionalProperties: false,
        },
      },
    };
    const shape = outputShapeOf(withOutput(tree));
    expect(shape?.wrapped).toBe(true);
    expect(shape?.schema).toMatchObject({ type: "object", required: ["result"], $defs: tree.$defs });
    const check = new Ajv2020().compile(shape?.schema as object);
    expect(check({ result: [{ name: "a", children: [{ name: "b", children: [] }] }] })).toBe(true);
    expect(check({ result: [{ name: "a" }] })).toBe(false);
  });

  it("keeps the draft a hand-written schema names, at the root of the wrapper", () => {
    const draft07 = "http://json-schema.org/draft-07/schema#";
    const shape = outputShapeOf(withOutput({ $schema: draft07, type: "array", items: [{ type: "string" }] }));
    expect(shape?.schema).toEqual({
      $schema: draft07,
      type: "object",
      properties: { result: { type: "array", items: [{ type: "string" }] } },
      required: ["result"],
      additionalProperties: false,
    });
  });

  it("announces nothing when the return type cannot be checked", () => {
    expect(outputShapeOf(withOutput(undefined))).toBeUndefined();
    expect(describeTool(withOutput(undefined))).not.toHaveProperty("outputSchema");
  });
});
