import { describe, expect, it } from "vitest";
import { Agent, AgentConfigError, type CompiledSpec, SPEC_VERSION, ToolDefinitionError } from "../../src/index.js";
import { FakeModel } from "../../src/testing/index.js";
import { stringTool } from "./helpers.js";

const spec = {
  $toolwright: SPEC_VERSION,
  name: "double",
  description: "Double a number.",
  parameters: { type: "object", properties: { n: { type: "number" } }, required: ["n"], additionalProperties: false },
  slots: [{ kind: "arg", name: "n" }],
  flags: {},
  source: { file: "math.ts", line: 1 },
} as CompiledSpec;

describe("new Agent()", () => {
  it("refuses two tools of one name at construction, naming both", () => {
    expect(
      () =>
        new Agent({
          name: "a",
          model: FakeModel.script([]),
          tools: [stringTool("x", () => 1), stringTool("x", () => 2)],
        }),
    ).toThrow(ToolDefinitionError);
    expect(
      () =>
        new Agent({
          name: "a",
          model: FakeModel.script([]),
          tools: [stringTool("x", () => 1), stringTool("x", () => 2)],
        }),
    ).toThrow(/two tools are named "x"/);
  });

  it("accepts compiled bare functions ({ fn, spec }, as the compiler writes them) and exposes a read-only tools map", async () => {
    const model = FakeModel.script([{ toolCalls: [{ name: "double", args: { n: 21 } }] }, "42"]);
    const agent = new Agent({ name: "math", model, tools: [{ fn: (n: number) => n * 2, spec } as never] });
    expect([...agent.tools.keys()]).toEqual(["double"]);
    const result = await agent.run("double 21");
    expect(result.messages.find((m) => m.role === "tool")?.content).toBe("42");
  });

  it("agent.tool(fn, opts, spec) registers a tool, options winning, and a duplicate throws", async () => {
    const agent = new Agent({ name: "math", model: FakeModel.script([]), tools: [stringTool("lookup", () => 1)] });
    const made = agent.tool((n: number) => n * 2, { name: "twice", readOnly: true }, spec);
    expect(made.name).toBe("twice");
    expect(agent.toolNames).toEqual(["lookup", "twice"]);
    expect(agent.tools.get("twice")?.flags.readOnly).toBe(true);
    expect(() => agent.tool((n: number) => n, { name: "twice" }, spec)).toThrow(/two tools are named "twice"/);
  });

  it("agent.tool(fn) without a compiled spec throws the missing-transformer error at once", () => {
    const agent = new Agent({ name: "a", model: FakeModel.script([]) });
    expect(() =>
      agent.tool(function plain(n: number) {
        return n;
      }),
    ).toThrow(/no compiled spec/);
  });

  it("a model string without a providers module ends in a clear error naming the fix", async () => {
    const agent = new Agent({ name: "a", model: "acme:unknown-model" });
    const error = await agent.run("hi").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(String((error as Error).message)).toMatch(/acme/);
    expect(error instanceof AgentConfigError || /provider|model/i.test((error as Error).message)).toBe(true);
  });
});
