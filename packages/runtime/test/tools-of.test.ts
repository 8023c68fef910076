import ts from "typescript";
import { describe, expect, it } from "vitest";
import { type CompiledSpec, SPEC_VERSION, tool, toolsOf } from "../src/index.js";

// What the compiler writes for `@tool` and `@tool({ ... })` on these two methods.
const specs: Record<string, CompiledSpec> = {
  lookup: {
    $toolwright: SPEC_VERSION,
    name: "lookup",
    description: "Look up an order.",
    parameters: {
      type: "object",
      properties: { id: { type: "string" } },
      required: ["id"],
      additionalProperties: false,
    },
    slots: [{ kind: "arg", name: "id" }],
    flags: {},
    source: { file: "orders.ts", line: 4 },
  } as CompiledSpec,
  cancel: {
    $toolwright: SPEC_VERSION,
    name: "cancel",
    description: "Cancel an order.",
    parameters: {
      type: "object",
      properties: { id: { type: "string" } },
      required: ["id"],
      additionalProperties: false,
    },
    slots: [{ kind: "arg", name: "id" }],
    flags: {},
    source: { file: "orders.ts", line: 8 },
  } as CompiledSpec,
};

// A class as a user writes it, after the transformer: `@tool` became `@tool(undefined, SPEC)`.
const source = `
class Orders {
  constructor(prefix) { this.prefix = prefix; }
  @tool(undefined, specs.lookup) lookup(id) { return this.prefix + id; }
  @tool({ destructive: true, name: "cancel_order" }, specs.cancel) cancel(id) { return "cancelled " + this.prefix + id; }
  helper() { return "not a tool"; }
}
return new Orders("A-");
`;

/** Compiles the class with the real TypeScript emitter, in one decorator flavour, and runs it. */
function instanceWith(experimentalDecorators: boolean): object {
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      experimentalDecorators,
      allowJs: true,
    },
    fileName: "orders.js",
  });
  return new Function("tool", "specs", outputText)(tool, specs) as object;
}

describe.each([
  ["TC39 decorators", false],
  ["experimentalDecorators", true],
])("toolsOf with %s", (_label, experimental) => {
  it("collects @tool methods, sorted, with this bound and options applied", async () => {
    const tools = toolsOf(instanceWith(experimental));
    expect(tools.map((t) => t.name)).toEqual(["cancel_order", "lookup"]);
    const [cancel, lookup] = tools;
    expect(cancel?.flags).toEqual({ destructive: true });
    expect((await lookup?.invoke({ id: "771" }))?.content).toBe("A-771");
    expect((await cancel?.invoke({ id: "9" }))?.content).toBe("cancelled A-9");
  });
});

describe("toolsOf", () => {
  it("finds inherited tool methods once, and none on a plain object", () => {
    const Base = instanceWith(false).constructor as new (prefix: string) => object;
    class Shop extends Base {}
    expect(toolsOf(new Shop("B-")).map((t) => t.name)).toEqual(["cancel_order", "lookup"]);
    expect(toolsOf({ lookup() {} })).toEqual([]);
  });
});
