import { describe, expect, it } from "vitest";
import { Agent, type CompiledSpec, SPEC_VERSION, type Tool, ToolDefinitionError, tool } from "../../src/index.js";
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

  it("suggests a fix for a duplicate name that the Agent accepts: tool(fn, { name })", () => {
    const double = (n: number) => n * 2;
    const first = tool(double, undefined, spec);
    const build = (second: Tool) => new Agent({ name: "math", model: FakeModel.script([]), tools: [first, second] });
    let message = "";
    try {
      build(tool((n: number) => n + n, undefined, spec));
    } catch (error) {
      message = (error as Error).message;
    }
    // No option the Agent does not take (ToolRegistry's `replace` is not an Agent option).
    expect(message).not.toMatch(/replace/);
    expect(message).toContain('rename one, with tool(fn, { name: "..." })');
    expect(message).toContain('mcpTools(source, { prefix: "..." })');
    // The suggestion, applied as written, builds.
    expect(build(tool((n: number) => n + n, { name: "double_again" }, spec)).toolNames).toEqual([
      "double",
      "double_again",
    ]);
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

  it("refuses limits that could never be met, naming the option", () => {
    const model = FakeModel.script([]);
    expect(() => new Agent({ name: "a", model, maxTurns: 0 })).toThrow(
      /agent "a": maxTurns must be a whole number of at least 1, got 0/,
    );
    expect(() => new Agent({ name: "a", model, maxConcurrentTools: 1.5 })).toThrow(/maxConcurrentTools/);
    expect(() => new Agent({ name: "a", model, maxCostUsd: -1 })).toThrow(/maxCostUsd must be above 0/);
    expect(() => new Agent({ name: "", model })).toThrow(/needs a name/);
  });

  it("resolves a model string lazily, at the first run, with the providers' errors", async () => {
    const agent = new Agent({ name: "a", model: "acme:unknown-model" });
    await expect(agent.run("hi")).rejects.toThrow(/model "acme:unknown-model" is not a model string toolwright knows/);
  });

  it("resolves a known model string to that provider's model (reading the key from the environment)", async () => {
    const saved = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      const agent = new Agent({ name: "a", model: "openai:gpt-5-mini" });
      await expect(agent.run("hi")).rejects.toThrow(/OPENAI_API_KEY/);
    } finally {
      if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
    }
  });
});
