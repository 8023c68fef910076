import { describe, expect, it } from "vitest";
import { Agent, type ModelRequest, RunAbortedError, type Tool, type ToolContext, tool } from "../../src/index.js";
import { FakeModel } from "../../src/testing/index.js";
import { stringTool } from "./helpers.js";

const prices = { "fake:scripted": { inputPerMTok: 1_000_000, outputPerMTok: 1_000_000 } };

describe("agent.asTool()", () => {
  it("runs the sub-agent on a child context: deps flow down, output comes back, usage rolls up", async () => {
    const seenDeps: unknown[] = [];
    const rates = stringTool("rate", ({ id }, ctx) => {
      seenDeps.push(ctx.deps);
      return `${id} costs 3 EUR`;
    });
    const billingModel = FakeModel.script([
      { toolCalls: [{ name: "rate", args: { id: "plan-a" } }], usage: { inputTokens: 5, outputTokens: 1 } },
      { text: "Plan A is 3 EUR.", usage: { inputTokens: 7, outputTokens: 2 } },
    ]);
    const billing = new Agent({ name: "billing", model: billingModel, tools: [rates] });
    const model = FakeModel.script([
      {
        toolCalls: [{ name: "ask_billing", args: { input: "price of plan-a?" } }],
        usage: { inputTokens: 10, outputTokens: 1 },
      },
      { text: "It is 3 EUR.", usage: { inputTokens: 20, outputTokens: 3 } },
    ]);
    const triage = new Agent({
      name: "triage",
      model,
      tools: [billing.asTool({ name: "ask_billing", description: "Ask the billing agent about prices and invoices." })],
    });
    const result = await triage.run("How much is plan A?", { deps: { tenant: "acme" } });
    expect(result.output).toBe("It is 3 EUR.");
    expect(model.requests[1]?.messages.at(-1)?.content).toBe("Plan A is 3 EUR.");
    expect(billingModel.requests[0]?.messages).toEqual([{ role: "user", content: "price of plan-a?" }]);
    expect(seenDeps).toEqual([{ tenant: "acme" }]);
    expect(result.usage).toMatchObject({ inputTokens: 42, outputTokens: 7, requests: 4 });
  });

  it("gives the sub-agent only what is left of the parent's budget", async () => {
    const subModel = FakeModel.script([
      { toolCalls: [{ name: "rate", args: { id: "x" } }], usage: { inputTokens: 2 } },
      "never reached",
    ]);
    const sub = new Agent({ name: "sub", model: subModel, tools: [stringTool("rate", () => "1")], prices });
    const model = FakeModel.script([
      { toolCalls: [{ name: "sub", args: { input: "go" } }], usage: { inputTokens: 2 } },
      "parent continues",
    ]);
    const parent = new Agent({
      name: "parent",
      model,
      tools: [sub.asTool({ name: "sub", description: "A sub-agent for tests." })],
      maxCostUsd: 3,
      prices,
    });
    const error = await parent.run("go").catch((e: unknown) => e);
    // The sub-run spent $2 of the $1 left and stopped; its usage rolled up and the parent is over budget too.
    expect(subModel.requests).toHaveLength(1);
    expect((error as Error).name).toBe("BudgetExceededError");
    expect((error as { result: { usage: { costUsd: number } } }).result.usage.costUsd).toBeCloseTo(4);
  });

  it("stops at maxDepth when an agent calls itself: the deepest call gets a tool_error naming the limit", async () => {
    const model = FakeModel.script(
      Array.from({ length: 6 }, () => (request: ModelRequest) => {
        const last = request.messages.at(-1);
        if (last?.role === "tool") return `answer after: ${last.content}`;
        return { toolCalls: [{ name: "self", args: { input: "again" } }] };
      }),
    );
    let self: Tool | undefined;
    const proxy = tool({
      name: "self",
      description: "Calls this very agent again.",
      parameters: { type: "object", properties: { input: { type: "string" } }, required: ["input"] },
      execute: (args, ctx) => (self as Tool).execute(args, ctx as ToolContext<never>),
    });
    const agent = new Agent({ name: "looping", model, tools: [proxy], maxDepth: 2 });
    self = agent.asTool({ name: "self", description: "Calls this very agent again." });
    const result = await agent.run("go");
    // Depth 0, 1 and 2 each asked the model; the call at depth 2 was refused.
    expect(model.requests.filter((r) => r.messages.length === 1)).toHaveLength(3);
    const refused = model.requests
      .map((r) => r.messages.at(-1))
      .find((m) => m?.role === "tool" && m.outcome === "tool_error");
    expect(refused?.content).toMatch(/sub-agent "looping" would run at depth 3, past maxDepth 2/);
    expect(result.output).toMatch(/^answer after: answer after: /);
  });

  it("passes the caller's abort down to the sub-run", async () => {
    const controller = new AbortController();
    const subModel = FakeModel.script([
      (request) =>
        new Promise((_, reject) => {
          request.signal?.addEventListener("abort", () => reject(request.signal?.reason));
          controller.abort("cancelled by user");
        }),
    ]);
    const sub = new Agent({ name: "sub", model: subModel });
    const model = FakeModel.script([{ toolCalls: [{ name: "sub", args: { input: "go" } }] }, "never"]);
    const parent = new Agent({
      name: "parent",
      model,
      tools: [sub.asTool({ name: "sub", description: "A sub-agent for tests." })],
    });
    await expect(parent.run("go", { signal: controller.signal })).rejects.toBeInstanceOf(RunAbortedError);
    expect(model.requests).toHaveLength(1);
  });
});
