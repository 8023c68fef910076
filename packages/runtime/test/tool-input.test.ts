import { describe, expect, it } from "vitest";
import { z } from "zod";
import { asTool, type CompiledSpec, SPEC_VERSION, ToolDefinitionError, tool, toTool } from "../src/index.js";

const spec = {
  $toolwright: SPEC_VERSION,
  name: "double",
  description: "Double a number.",
  parameters: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
  slots: [{ kind: "arg", name: "n" }],
  flags: { readOnly: true },
  source: { file: "double.ts", line: 2 },
} as CompiledSpec;

describe("asTool (the Tool protocol)", () => {
  it("fills flags and keeps execute bound to the object", () => {
    const protocol = {
      name: "scale",
      description: "Scale.",
      parameters: { type: "object", properties: { n: { type: "number" } } },
      factor: 3,
      execute(args: { n: number }) {
        return args.n * this.factor;
      },
    };
    const t = asTool(protocol);
    expect(t.flags).toEqual({});
    expect(t.execute({ n: 2 }, {} as never)).toBe(6);
  });

  it("returns a complete tool as it is", () => {
    const made = tool((n: number) => n * 2, undefined, spec);
    expect(asTool(made)).toBe(made);
  });

  it("turns a Standard Schema into JSON Schema", () => {
    const t = asTool({ name: "z", description: "d", parameters: z.object({ q: z.string() }), execute: () => 1 });
    expect(t.parameters).toMatchObject({ type: "object", properties: { q: { type: "string" } }, required: ["q"] });
  });

  it("names what is missing", () => {
    expect(() => asTool({ name: "x", description: "d", parameters: { type: "object" } })).toThrow(
      'tool "x" has no execute(args, ctx) function.',
    );
    expect(() => asTool({ name: "x", parameters: { type: "object" }, execute() {} })).toThrow(/has no description/);
    expect(() => asTool(42)).toThrow(ToolDefinitionError);
  });
});

describe("toTool (normalising a tool list entry)", () => {
  it("turns a compiled bare function into a tool", async () => {
    const t = toTool({ fn: (n: number) => n * 2, spec });
    expect(t.name).toBe("double");
    expect(t.execute({ n: 4 }, {} as never)).toBe(8);
  });

  it("throws the missing-spec error for a bare function the compiler did not see", () => {
    function triple(n: number) {
      return n * 3;
    }
    expect(() => toTool(triple)).toThrow(/tool "triple" .*has no compiled spec/);
  });
});
