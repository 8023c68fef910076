import { describe, expect, it } from "vitest";
import {
  Agent,
  AgentConfigError,
  BudgetExceededError,
  MaxTurnsExceededError,
  RepeatedCallError,
  RunAbortedError,
} from "../../src/index.js";
import { FakeModel } from "../../src/testing/index.js";
import { stringTool } from "./helpers.js";

const echo = stringTool("echo", ({ id }) => id);
const call = (id: string) => ({ toolCalls: [{ name: "echo", args: { id } }] });

describe("maxTurns", () => {
  it("defaults to 10 and ends with MaxTurnsExceededError carrying a well-formed partial transcript", async () => {
    const model = FakeModel.script(Array.from({ length: 11 }, (_, i) => call(String(i))));
    const error = await new Agent({ name: "looper", model, tools: [echo] }).run("go").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MaxTurnsExceededError);
    const { result, maxTurns } = error as MaxTurnsExceededError;
    expect(maxTurns).toBe(10);
    expect(model.requests).toHaveLength(10);
    expect(result.status).toBe("stopped");
    expect(result.steps).toHaveLength(10);
    expect(result.messages.filter((m) => m.role === "tool")).toHaveLength(10);
    expect((error as Error).message).toMatch(/agent "looper" used all 10 turns.*Raise maxTurns/);
  });

  it("can be set per agent and per run", async () => {
    const model = FakeModel.script([call("a"), call("b"), call("c")]);
    const agent = new Agent({ name: "a", model, tools: [echo], maxTurns: 5 });
    await expect(agent.run("go", { maxTurns: 2 })).rejects.toBeInstanceOf(MaxTurnsExceededError);
    expect(model.requests).toHaveLength(2);
  });
});

describe("maxCostUsd", () => {
  const prices = {
    "fake:scripted": { inputPerMTok: 1_000_000, outputPerMTok: 2_000_000, cachedInputPerMTok: 100_000 },
  };

  it("prices usage per model (cached input at its own price) and stops before running more work past the budget", async () => {
    const ran: string[] = [];
    const tracked = stringTool("echo", ({ id }) => {
      ran.push(id);
      return id;
    });
    const model = FakeModel.script([
      { ...call("first"), usage: { inputTokens: 1, outputTokens: 0 } }, // $1
      { ...call("second"), usage: { inputTokens: 2, cachedInputTokens: 1, outputTokens: 1 } }, // $1 + $0.1 + $2
      "never",
    ]);
    const agent = new Agent({ name: "spender", model, tools: [tracked], maxCostUsd: 3, prices });
    const error = (await agent.run("go").catch((e: unknown) => e)) as BudgetExceededError;
    expect(error).toBeInstanceOf(BudgetExceededError);
    expect(error.costUsd).toBeCloseTo(4.1);
    expect(error.maxCostUsd).toBe(3);
    expect(ran).toEqual(["first"]);
    expect(error.result.usage).toMatchObject({ inputTokens: 3, cachedInputTokens: 1, outputTokens: 1, requests: 2 });
    // The turn whose calls did not run stays out of the transcript; it is in the steps.
    expect(error.result.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
    expect(error.result.steps).toHaveLength(2);
  });

  it("uses the built-in price table for known models, the user's entry winning", async () => {
    const model = FakeModel.script([{ text: "hi", usage: { inputTokens: 1_000_000, outputTokens: 1_000_000 } }], {
      id: "openai:gpt-5-mini",
    });
    const result = await new Agent({ name: "a", model, maxCostUsd: 100 }).run("go");
    expect(result.usage.costUsd).toBeCloseTo(0.25 + 2);
    const model2 = FakeModel.script([{ text: "hi", usage: { inputTokens: 1_000_000 } }], { id: "openai:gpt-5-mini" });
    const prices2 = { "openai:gpt-5-mini": { inputPerMTok: 7, outputPerMTok: 7 } };
    const result2 = await new Agent({ name: "a", model: model2, maxCostUsd: 100, prices: prices2 }).run("go");
    expect(result2.usage.costUsd).toBeCloseTo(7);
  });

  it("refuses a budget it cannot enforce: a model with no known price", async () => {
    const agent = new Agent({ name: "a", model: FakeModel.script(["x"], { id: "acme:unknown" }), maxCostUsd: 1 });
    await expect(agent.run("go")).rejects.toThrow(AgentConfigError);
    await expect(agent.run("go")).rejects.toThrow(/no price is known for model "acme:unknown".*prices:/);
  });
});

describe("the caller's signal", () => {
  it("aborts tools in flight and ends with RunAbortedError", async () => {
    const controller = new AbortController();
    let toolSignal: AbortSignal | undefined;
    const hang = stringTool("echo", (_args, ctx) => {
      toolSignal = ctx.signal;
      queueMicrotask(() => controller.abort(new Error("user left")));
      return new Promise(() => {});
    });
    const model = FakeModel.script([call("x"), "never"]);
    const error = (await new Agent({ name: "a", model, tools: [hang] })
      .run("go", { signal: controller.signal })
      .catch((e: unknown) => e)) as RunAbortedError;
    expect(error).toBeInstanceOf(RunAbortedError);
    expect(toolSignal?.aborted).toBe(true);
    expect(error.message).toMatch(/aborted by the caller's signal \(Error: user left\)/);
    expect(error.result.messages.map((m) => m.role)).toEqual(["user"]);
    expect(model.requests).toHaveLength(1);
  });

  it("aborts a model request in flight", async () => {
    const controller = new AbortController();
    const model = FakeModel.script([
      (request) =>
        new Promise((_, reject) => {
          request.signal?.addEventListener("abort", () => reject(request.signal?.reason));
          controller.abort("stop");
        }),
    ]);
    await expect(new Agent({ name: "a", model }).run("go", { signal: controller.signal })).rejects.toBeInstanceOf(
      RunAbortedError,
    );
  });
});

describe("repeated identical calls", () => {
  it("tells the model by default on the third identical call in a row, without running it", async () => {
    let runs = 0;
    const counted = stringTool("echo", ({ id }) => {
      runs++;
      return id;
    });
    const model = FakeModel.script([
      call("same"),
      call("same"),
      { toolCalls: [{ name: "echo", args: '{ "id": "same" }' }] },
      "ok",
    ]);
    const result = await new Agent({ name: "a", model, tools: [counted] }).run("go");
    expect(runs).toBe(2);
    const last = result.messages.filter((m) => m.role === "tool").at(-1);
    expect(last?.outcome).toBe("tool_error");
    expect(last?.content).toMatch(/called echo with these same arguments 3 times in a row/);
  });

  it("does not count calls with other arguments in between", async () => {
    const model = FakeModel.script([call("a"), call("a"), call("b"), call("a"), "ok"]);
    const result = await new Agent({ name: "a", model, tools: [echo] }).run("go");
    expect(result.messages.filter((m) => m.role === "tool").map((m) => m.outcome)).toEqual(["ok", "ok", "ok", "ok"]);
  });

  it("ends the run with RepeatedCallError when configured to fail", async () => {
    const model = FakeModel.script([call("a"), call("a"), "never"]);
    const agent = new Agent({ name: "a", model, tools: [echo], repeatedCalls: { limit: 2, action: "fail" } });
    const error = (await agent.run("go").catch((e: unknown) => e)) as RepeatedCallError;
    expect(error).toBeInstanceOf(RepeatedCallError);
    expect(error.toolName).toBe("echo");
    expect(error.count).toBe(2);
    expect(error.result.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
  });
});
