import { describe, expect, it } from "vitest";
import { bindArguments, type CompiledSpec, SPEC_VERSION, ToolDefinitionError, tool } from "../src/index.js";

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

describe("tool(fn, options, spec).invoke", () => {
  it("validates, maps positions around the context, and runs", async () => {
    const t = tool((a: number, _ctx: unknown, b: number) => a + b, undefined, spec);
    expect(await t.invoke({ a: 2, b: "3" })).toEqual({ value: 5, content: "5", truncated: false });
    await expect(t.invoke({ a: 2 })).rejects.toThrow('missing required key "b" (number)');
  });

  it("refuses a name no provider accepts, naming where the tool is defined", () => {
    expect(() => tool((a: number) => a, { name: "add numbers" }, spec)).toThrow(
      'tool name "add numbers" (defined at math.ts:3) is not valid: use 1 to 64 letters, digits, "_" or "-".',
    );
  });
});

describe("bindArguments", () => {
  it("fills each slot from own keys only", () => {
    const ctx = {} as never;
    expect(
      bindArguments([{ kind: "arg", name: "toString" }, { kind: "context" }, { kind: "object" }], { x: 1 }, ctx),
    ).toEqual([undefined, ctx, { x: 1 }]);
  });
});

describe("decorators the compiler did not see", () => {
  it("a bare TC39 @tool throws the missing-spec error naming the method", () => {
    const context = { kind: "method", name: "lookup", addInitializer() {} } as unknown as ClassMethodDecoratorContext<
      unknown,
      () => void
    >;
    expect(() => tool(() => {}, context)).toThrow(/tool "lookup" .*has no compiled spec/);
  });

  it("a bare legacy @tool throws the missing-spec error naming the method", () => {
    expect(() => tool({}, "lookup", { value: () => {} })).toThrow(/tool "lookup" .*has no compiled spec/);
  });

  it("an untransformed @tool({...}) throws when applied", () => {
    const decorate = tool({ readOnly: true });
    expect(() => decorate({}, "lookup", { value: () => {} })).toThrow(/tool "lookup" .*has no compiled spec/);
  });
});
