import { describe, expect, it } from "vitest";
import { Agent, Retry, ToolCallFailedError, ToolError } from "../../src/index.js";
import { FakeModel } from "../../src/testing/index.js";
import { stringTool } from "./helpers.js";

const fast = { maxAttempts: 3, initialBackoffMs: 1 };
const callOnce = (name: string) => FakeModel.script([{ toolCalls: [{ name, args: { id: "x" } }] }, "done"]);

function flaky(
  name: string,
  failures: number,
  flags: { readOnly?: boolean; idempotent?: boolean; destructive?: boolean },
) {
  const attempts: Array<{ attempt: number; callId: string }> = [];
  const t = stringTool(
    name,
    (_args, ctx) => {
      attempts.push({ attempt: ctx.attempt, callId: ctx.callId });
      if (attempts.length <= failures) throw new ToolError("service busy (503)", { retryable: true });
      return "fine";
    },
    flags,
  );
  return { t, attempts };
}

describe("engine retries of a retryable ToolError", () => {
  it("retries a readOnly tool with backoff before the model sees anything, keeping ctx.callId", async () => {
    const { t, attempts } = flaky("read", 2, { readOnly: true });
    const result = await new Agent({ name: "a", model: callOnce("read"), tools: [t], toolRetry: fast }).run("go");
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3]);
    expect(new Set(attempts.map((a) => a.callId)).size).toBe(1);
    expect(result.messages.find((m) => m.role === "tool")?.content).toBe("fine");
    expect(result.steps[0]?.calls[0]?.attempts).toBe(3);
  });

  it("retries an idempotent tool, and gives up after maxAttempts with the error for the model", async () => {
    const { t, attempts } = flaky("idem", 5, { idempotent: true });
    const result = await new Agent({ name: "a", model: callOnce("idem"), tools: [t], toolRetry: fast }).run("go");
    expect(attempts).toHaveLength(3);
    const msg = result.messages.find((m) => m.role === "tool");
    expect([msg?.outcome, msg?.content]).toEqual(["tool_error", "service busy (503)"]);
  });

  it("never retries a tool that is neither readOnly nor idempotent, nor a destructive one", async () => {
    for (const flags of [{}, { destructive: true, idempotent: false }]) {
      const { t, attempts } = flaky("write", 1, flags);
      await new Agent({ name: "a", model: callOnce("write"), tools: [t], toolRetry: fast }).run("go");
      expect(attempts).toHaveLength(1);
    }
  });

  it("does not retry a ToolError that is not retryable", async () => {
    let n = 0;
    const t = stringTool(
      "read",
      () => {
        n++;
        throw new ToolError("no such order");
      },
      { readOnly: true },
    );
    await new Agent({ name: "a", model: callOnce("read"), tools: [t], toolRetry: fast }).run("go");
    expect(n).toBe(1);
  });
});

describe("Retry(hint)", () => {
  it("sends the hint to the model, counted against the tool's retries; then it becomes a tool_error", async () => {
    const picky = stringTool(
      "search",
      () => {
        throw new Retry("Try a shorter query.");
      },
      { retries: 1 },
    );
    const model = FakeModel.script([
      { toolCalls: [{ name: "search", args: { id: "long query" } }] },
      { toolCalls: [{ name: "search", args: { id: "query" } }] },
      "giving up",
    ]);
    const result = await new Agent({ name: "a", model, tools: [picky] }).run("go");
    const outcomes = result.messages.filter((m) => m.role === "tool").map((m) => [m.outcome, m.content]);
    expect(outcomes[0]).toEqual(["retry", "Try a shorter query."]);
    expect(outcomes[1]?.[0]).toBe("tool_error");
    expect(outcomes[1]?.[1]).toMatch(/asked for 1 retries already and gives up: Try a shorter query\./);
  });

  it("allows 2 retries by default", async () => {
    const picky = stringTool("search", () => {
      throw new Retry("again");
    });
    const turn = { toolCalls: [{ name: "search", args: { id: "q" } }] };
    const model = FakeModel.script([turn, { toolCalls: [{ name: "search", args: { id: "r" } }] }, turn, "done"]);
    const result = await new Agent({ name: "a", model, tools: [picky] }).run("go");
    expect(result.messages.filter((m) => m.role === "tool").map((m) => m.outcome)).toEqual([
      "retry",
      "retry",
      "tool_error",
    ]);
  });
});

describe("onToolException", () => {
  const buggy = () =>
    stringTool("buggy", () => {
      throw new TypeError("Cannot read properties of undefined (reading 'secret')");
    });

  it("return_to_model (default) sends the exception's message", async () => {
    const result = await new Agent({ name: "a", model: callOnce("buggy"), tools: [buggy()] }).run("go");
    expect(result.messages.find((m) => m.role === "tool")?.content).toMatch(/Cannot read properties of undefined/);
  });

  it("return_generic sends a generic text and keeps the real one in the run's record only", async () => {
    const model = callOnce("buggy");
    const result = await new Agent({ name: "a", model, tools: [buggy()], onToolException: "return_generic" }).run("go");
    const sent = JSON.stringify(model.requests[1]?.messages);
    expect(sent).not.toMatch(/secret/);
    expect(result.messages.find((m) => m.role === "tool")?.content).toMatch(/internal error/);
    expect(result.steps[0]?.calls[0]?.detail).toMatch(/reading 'secret'/);
  });

  it("fail ends the run with ToolCallFailedError naming the tool, the call and the cause", async () => {
    const agent = new Agent({ name: "a", model: callOnce("buggy"), tools: [buggy()], onToolException: "fail" });
    const error = (await agent.run("go").catch((e: unknown) => e)) as ToolCallFailedError;
    expect(error).toBeInstanceOf(ToolCallFailedError);
    expect([error.toolName, error.callId]).toEqual(["buggy", "call_1_0"]);
    expect(error.message).toMatch(/tool "buggy" \(call call_1_0\) threw/);
    expect(error.result.messages.map((m) => m.role)).toEqual(["user"]);
  });

  it("does not apply to ToolError, which always goes to the model", async () => {
    const t = stringTool("t", () => {
      throw new ToolError("expected failure");
    });
    const result = await new Agent({ name: "a", model: callOnce("t"), tools: [t], onToolException: "fail" }).run("go");
    expect(result.messages.find((m) => m.role === "tool")?.content).toBe("expected failure");
  });
});
