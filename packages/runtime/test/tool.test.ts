import { describe, expect, it } from "vitest";
import { type CompiledSpec, SPEC_VERSION, ToolDefinitionError, tool } from "../src/index.js";

const spec = {
  $toolwright: SPEC_VERSION,
  name: "add",
  description: "Add two numbers.",
  parameters: {
    type: "object",
    properties: { a: { type: "number" }, b: { type: "number" } },
    required: ["a", "b"],
    additionalProperties: false,
  },
  slots: [{ kind: "arg", name: "a" }, { kind: "context" }, { kind: "arg", name: "b" }],
  flags: { readOnly: true },
  source: { file: "math.ts", line: 3 },
} as CompiledSpec;

describe("tool(fn) without a compiled spec", () => {
  it("throws at once, naming the tool and the fix", () => {
    function add(a: number, b: number) {
      return a + b;
    }
    expect(() => tool(add)).toThrow(ToolDefinitionError);
    expect(() => tool(add)).toThrow(/tool "add" .*has no compiled spec.*@toolwright\/compiler\/transform/);
  });
});

describe("tool(fn, options, spec)", () => {
  it("exposes the compiled name, description, schema and flags", () => {
    const t = tool((a: number, _ctx: unknown, b: number) => a + b, undefined, spec);
    expect(t.name).toBe("add");
    expect(t.description).toBe("Add two numbers.");
    expect(t.parameters).toBe(spec.parameters);
    expect(t.flags).toEqual({ readOnly: true });
  });

  it("lets options win over the spec", () => {
    const t = tool((a: number, _ctx: unknown, b: number) => a + b, { name: "plus", destructive: true }, spec);
    expect(t.name).toBe("plus");
    expect(t.flags).toEqual({ readOnly: true, destructive: true });
  });
});
