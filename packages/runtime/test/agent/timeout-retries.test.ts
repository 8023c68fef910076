import { describe, expect, it } from "vitest";
import { Agent } from "../../src/index.js";
import { FakeModel } from "../../src/testing/index.js";
import { stringTool } from "./helpers.js";

const fast = { maxAttempts: 3, initialBackoffMs: 1 };
const callOnce = (name: string) => FakeModel.script([{ toolCalls: [{ name, args: { id: "x" } }] }, "done"]);

/** A tool whose first `hangs` attempts wait until their signal aborts (the time limit), then one that answers. */
function slowAtFirst(name: string, hangs: number, flags: { readOnly?: boolean; idempotent?: boolean }) {
  const attempts: number[] = [];
  const aborted: unknown[] = [];
  const t = stringTool(
    name,
    (_args, ctx) => {
      attempts.push(ctx.attempt);
      if (attempts.length > hangs) return "fine";
      return new Promise((resolve) => {
        ctx.signal.addEventListener("abort", () => {
          aborted.push(ctx.signal.reason);
          resolve("too late");
        });
      });
    },
    { ...flags, timeoutMs: 30 },
  );
  return { t, attempts, aborted };
}

describe("engine retries after a timeout (issue 11)", () => {
  it.each([{ readOnly: true }, { idempotent: true }])("retries a tool flagged %o after it timed out", async (flags) => {
    const { t, attempts, aborted } = slowAtFirst("lookup", 1, flags);
    const result = await new Agent({ name: "a", model: callOnce("lookup"), tools: [t], toolRetry: fast }).run("go");
    expect(attempts).toEqual([1, 2]);
    expect(aborted).toHaveLength(1);
    const message = result.messages.find((m) => m.role === "tool");
    expect([message?.outcome, message?.content]).toEqual(["ok", "fine"]);
    expect(result.steps[0]?.calls[0]?.attempts).toBe(2);
  });

  it("gives up after maxAttempts timeouts and tells the model", async () => {
    const { t, attempts } = slowAtFirst("lookup", 5, { readOnly: true });
    const result = await new Agent({ name: "a", model: callOnce("lookup"), tools: [t], toolRetry: fast }).run("go");
    expect(attempts).toEqual([1, 2, 3]);
    expect(result.messages.find((m) => m.role === "tool")?.outcome).toBe("timeout");
  });

  it("never retries a timed-out tool that is neither readOnly nor idempotent", async () => {
    const { t, attempts } = slowAtFirst("charge", 1, { idempotent: false });
    const result = await new Agent({ name: "a", model: callOnce("charge"), tools: [t], toolRetry: fast }).run("go");
    expect(attempts).toEqual([1]);
    expect(result.messages.find((m) => m.role === "tool")?.outcome).toBe("timeout");
  });
});
