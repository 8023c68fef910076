import { describe, expect, it } from "vitest";
import { Agent, type Message, Retry, ToolError, tool } from "../../src/index.js";
import { FakeModel } from "../../src/testing/index.js";
import { stringTool, tick } from "./helpers.js";

describe("a run", () => {
  it("sends the transcript and the tool definitions sorted by name, and ends on a final answer", async () => {
    const model = FakeModel.script([{ toolCalls: [{ name: "lookup", args: { id: "A-1" } }] }, "Order A-1 shipped."]);
    const agent = new Agent({
      name: "support",
      model,
      instructions: "Answer order questions.",
      tools: [
        stringTool("zeta", () => "z"),
        stringTool("lookup", ({ id }) => ({ id, status: "shipped" })),
        stringTool("alpha", () => "a"),
      ],
    });
    const result = await agent.run("Where is A-1?");

    expect(result.status).toBe("completed");
    expect(result.output).toBe("Order A-1 shipped.");
    expect(model.requests).toHaveLength(2);
    expect(model.requests[0]?.tools.map((t) => t.name)).toEqual(["alpha", "lookup", "zeta"]);
    expect(model.requests[0]?.instructions).toBe("Answer order questions.");
    expect(model.requests[0]?.messages).toEqual([{ role: "user", content: "Where is A-1?" }]);
    expect(model.requests[1]?.messages.at(-1)).toEqual({
      role: "tool",
      callId: "call_1_0",
      toolName: "lookup",
      content: '{"id":"A-1","status":"shipped"}',
      outcome: "ok",
      isError: false,
    });
    expect(result.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(result.steps.map((s) => s.calls.map((c) => c.outcome))).toEqual([["ok"], []]);
  });

  it("continues a transcript given as messages", async () => {
    const model = FakeModel.script(["Hello again."]);
    const history: Message[] = [
      { role: "user", content: "Hi" },
      { role: "assistant", content: "Hello.", toolCalls: [] },
      { role: "user", content: "Hi again" },
    ];
    const result = await new Agent({ name: "a", model }).run(history);
    expect(model.requests[0]?.messages).toEqual(history);
    expect(result.messages).toHaveLength(4);
  });

  it("runs the calls of one turn concurrently up to maxConcurrentTools, appending results in call order", async () => {
    let running = 0;
    let peak = 0;
    const release: Array<() => void> = [];
    const slow = stringTool("slow", async ({ id }) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise<void>((resolve) => release.push(resolve));
      running--;
      return `done ${id}`;
    });
    const ids = ["a", "b", "c", "d", "e"];
    const model = FakeModel.script([{ toolCalls: ids.map((id) => ({ name: "slow", args: { id } })) }, "ok"]);
    const agent = new Agent({ name: "par", model, tools: [slow], maxConcurrentTools: 2 });
    const run = agent.run("go");
    // Release the calls in reverse order of arrival so finishing order differs from call order.
    for (let settled = 0; settled < ids.length; ) {
      await tick();
      const waiting = release.splice(0);
      for (const r of waiting.reverse()) r();
      settled += waiting.length;
    }
    await run;
    expect(peak).toBe(2);
    const results = model.requests[1]?.messages.filter((m) => m.role === "tool") ?? [];
    expect(results.map((m) => m.content)).toEqual(ids.map((id) => `done ${id}`));
  });

  it("gives every failure a valid tool result naming what went wrong", async () => {
    const model = FakeModel.script([
      {
        toolCalls: [
          { name: "lookup", args: { id: 7 } },
          { name: "nope", args: {} },
          { name: "broken", args: { id: "x" } },
          { name: "picky", args: { id: "x" } },
          { name: "sleepy", args: { id: "x" } },
          { name: "lookup", args: "{not json" },
        ],
      },
      "sorry",
    ]);
    const agent = new Agent({
      name: "outcomes",
      model,
      tools: [
        stringTool("lookup", () => "found"),
        stringTool("broken", () => {
          throw new ToolError("order store is read-only today");
        }),
        stringTool("picky", () => {
          throw new Retry("use an id like A-123");
        }),
        stringTool(
          "sleepy",
          (_args, ctx) =>
            new Promise((_, reject) => ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason))),
          { timeoutMs: 5 },
        ),
      ],
    });
    const result = await agent.run("go");
    const tools = result.messages.filter((m) => m.role === "tool");
    expect(tools.map((m) => [m.toolName, m.outcome, m.isError])).toEqual([
      ["lookup", "invalid_arguments", true],
      ["nope", "unknown_tool", true],
      ["broken", "tool_error", true],
      ["picky", "retry", true],
      ["sleepy", "timeout", true],
      ["lookup", "invalid_arguments", true],
    ]);
    expect(tools[0]?.content).toMatch(/id/);
    expect(tools[1]?.content).toBe('Unknown tool "nope". Available tools: broken, lookup, picky, sleepy.');
    expect(tools[2]?.content).toBe("order store is read-only today");
    expect(tools[3]?.content).toBe("use an id like A-123");
    expect(tools[4]?.content).toMatch(/sleepy did not finish within 5 ms/);
    // Each call has exactly one result, in call order.
    const calls = result.messages.find((m) => m.role === "assistant")?.toolCalls ?? [];
    expect(tools.map((m) => m.callId)).toEqual(calls.map((c) => c.id));
  });

  it("gives tools a context with deps, ids, step, attempt, a signal, the live usage and a log kept in the record", async () => {
    const seen: unknown[] = [];
    const probe = stringTool("probe", (_args, ctx) => {
      seen.push({ deps: ctx.deps, runId: ctx.runId, callId: ctx.callId, step: ctx.step, attempt: ctx.attempt });
      seen.push(ctx.usage.inputTokens);
      ctx.log.info("probing", { n: 1 });
      return "ok";
    });
    const model = FakeModel.script([
      { toolCalls: [{ name: "probe", args: { id: "1" } }], usage: { inputTokens: 12 } },
      "done",
    ]);
    const result = await new Agent({ name: "ctx", model, tools: [probe] }).run("go", { deps: { db: "orders" } });
    expect(seen[0]).toEqual({ deps: { db: "orders" }, runId: result.runId, callId: "call_1_0", step: 1, attempt: 1 });
    expect(seen[1]).toBe(12);
    expect(result.steps[0]?.calls[0]?.logs).toEqual([{ level: "info", message: "probing", data: { n: 1 } }]);
  });
});

describe("a tool validating with a Standard Schema inside execute", () => {
  it("reports its verdict as invalid_arguments, not as a tool exception", async () => {
    const { z } = await import("zod");
    const strict = tool({
      name: "strict",
      description: "Takes an even quantity, checked by zod (a refinement JSON Schema cannot carry).",
      parameters: z.object({ qty: z.number().refine((n) => n % 2 === 0, "qty must be even") }),
      execute: ({ qty }) => qty,
    });
    const model = FakeModel.script([{ toolCalls: [{ name: "strict", args: { qty: 3 } }] }, "ok"]);
    const result = await new Agent({ name: "z", model, tools: [strict], onToolException: "fail" }).run("go");
    const sent = result.messages.find((m) => m.role === "tool");
    expect(sent).toMatchObject({ outcome: "invalid_arguments" });
    expect(sent?.content).toMatch(/even/);
  });
});
