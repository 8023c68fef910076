import { describe, expect, it } from "vitest";
import {
  Agent,
  type AgentStreamEvent,
  type Model,
  type ModelResponse,
  type RunResult,
  type RunState,
} from "../../src/index.js";
import { FakeModel } from "../../src/testing/index.js";
import { stringTool } from "./helpers.js";

const script = () =>
  FakeModel.script([
    {
      text: "Let me check.",
      toolCalls: [{ name: "lookup", args: { id: "A-1" } }],
      usage: { inputTokens: 3, outputTokens: 2 },
    },
    { text: "It shipped.", usage: { inputTokens: 5, outputTokens: 1 } },
  ]);
const lookup = () => stringTool("lookup", ({ id }) => `${id}: shipped`);

describe("agent.stream()", () => {
  it("yields text and argument deltas, tool results, step finishes and the result, in order", async () => {
    const agent = new Agent({ name: "s", model: script(), tools: [lookup()] });
    const events: AgentStreamEvent[] = [];
    for await (const event of agent.stream("Where is A-1?")) events.push(event);

    const types = events.map((e) => e.type);
    expect(types[0]).toBe("turn-start");
    expect(types.at(-1)).toBe("run-finish");
    const text = events.flatMap((e) => (e.type === "text-delta" && e.step === 1 ? [e.delta] : [])).join("");
    expect(text).toBe("Let me check.");
    const args = events.flatMap((e) => (e.type === "tool-call-delta" ? [e.delta] : [])).join("");
    expect(JSON.parse(args)).toEqual({ id: "A-1" });
    expect(events.filter((e) => e.type === "tool-call-delta").length).toBeGreaterThan(1);
    const order = types.filter((t) => ["tool-call-start", "tool-call-end", "tool-result", "step-finish"].includes(t));
    expect(order).toEqual(["tool-call-start", "tool-call-end", "tool-result", "step-finish", "step-finish"]);
    const result = events.at(-1);
    expect(result?.type === "run-finish" && result.result.output).toBe("It shipped.");
  });

  it("yields each tool result as its call finishes, while the transcript keeps call order", async () => {
    let releaseSlow: (() => void) | undefined;
    const slow = stringTool("slow", () => new Promise((resolve) => (releaseSlow = () => resolve("slow done"))));
    const fast = stringTool("fast", () => "fast done");
    const model = FakeModel.script([
      {
        toolCalls: [
          { name: "slow", args: { id: "1" } },
          { name: "fast", args: { id: "2" } },
        ],
      },
      "both done",
    ]);
    const seen: string[] = [];
    let result: RunResult | undefined;
    for await (const e of new Agent({ name: "s", model, tools: [slow, fast] }).stream("go")) {
      if (e.type === "tool-result") {
        seen.push(e.message.content);
        releaseSlow?.();
      }
      if (e.type === "run-finish") result = e.result;
    }
    expect(seen).toEqual(["fast done", "slow done"]);
    expect(result?.messages.filter((m) => m.role === "tool").map((m) => m.content)).toEqual(["slow done", "fast done"]);
  });

  it("yields a tool's ctx.progress reports as tool-progress events, between its call and its result", async () => {
    const copy = stringTool("copy", ({ id }, ctx) => {
      ctx.progress(1, 2, "first half");
      ctx.progress(2, 2);
      return `${id} copied`;
    });
    const model = FakeModel.script([{ toolCalls: [{ name: "copy", args: { id: "f" } }] }, "copied"]);
    const events: AgentStreamEvent[] = [];
    for await (const e of new Agent({ name: "s", model, tools: [copy] }).stream("copy f")) events.push(e);
    const callId = events.find((e) => e.type === "tool-call-end")?.call.id;
    const progress = events.filter((e) => e.type === "tool-progress");
    expect(progress).toEqual([
      { type: "tool-progress", step: 1, callId, toolName: "copy", progress: 1, total: 2, message: "first half" },
      { type: "tool-progress", step: 1, callId, toolName: "copy", progress: 2, total: 2 },
    ]);
    const order = events
      .map((e) => e.type)
      .filter((t) => ["tool-call-end", "tool-progress", "tool-result"].includes(t));
    expect(order).toEqual(["tool-call-end", "tool-progress", "tool-progress", "tool-result"]);
    // run() reads no events: the same tool runs, and its reports go nowhere.
    const model2 = FakeModel.script([{ toolCalls: [{ name: "copy", args: { id: "f" } }] }, "copied"]);
    expect((await new Agent({ name: "r", model: model2, tools: [copy] }).run("copy f")).output).toBe("copied");
  });

  it("has the same semantics as run(): same transcript and usage", async () => {
    const ran = await new Agent({ name: "s", model: script(), tools: [lookup()] }).run("Where is A-1?");
    let streamed: unknown;
    for await (const e of new Agent({ name: "s", model: script(), tools: [lookup()] }).stream("Where is A-1?")) {
      if (e.type === "run-finish") streamed = e.result;
    }
    // Timings differ from run to run; everything else must match.
    const untimed = ({ startedAt, durationMs, ...rest }: { startedAt?: number; durationMs?: number }) => rest;
    const pick = (r: unknown) => {
      const { messages, usage, output, steps } = r as typeof ran;
      return { messages, usage, output, steps: steps.map((s) => ({ ...untimed(s), calls: s.calls.map(untimed) })) };
    };
    expect(pick(streamed)).toEqual(pick(ran));
  });

  it("ends a run paused for approval with run-finish carrying the interruptions and the state", async () => {
    const gated = stringTool("gated", () => "ran", { needsApproval: true });
    const model = FakeModel.script([{ toolCalls: [{ name: "gated", args: { id: "1" } }] }, "done"]);
    const agent = new Agent({ name: "s", model, tools: [gated] });
    const events: AgentStreamEvent[] = [];
    for await (const e of agent.stream("go")) events.push(e);
    const last = events.at(-1);
    expect(last?.type).toBe("run-finish");
    const paused = last?.type === "run-finish" ? last.result : undefined;
    expect(paused?.status).toBe("interrupted");
    expect(paused?.interruptions.map((i) => i.toolName)).toEqual(["gated"]);
    paused?.state?.approve("call_1_0");
    const resumed: string[] = [];
    for await (const e of agent.stream(paused?.state as RunState)) resumed.push(e.type);
    expect(resumed[0]).toBe("tool-result");
    expect(resumed.at(-1)).toBe("run-finish");
  });

  it("passes a provider's mid-stream retry on, so a consumer can drop the deltas it saw", async () => {
    const inner = FakeModel.script(["final text"]);
    const model: Model = {
      id: inner.id,
      generate: (r) => inner.generate(r),
      async *stream(r) {
        yield { type: "text-delta", delta: "garbled" };
        yield { type: "retry", attempt: 2, error: new Error("stream cut") };
        yield* inner.stream(r);
      },
    };
    const events: AgentStreamEvent[] = [];
    for await (const e of new Agent({ name: "s", model }).stream("go")) events.push(e);
    const retry = events.find((e) => e.type === "model-retry");
    expect(retry).toMatchObject({ type: "model-retry", step: 1, attempt: 2 });
    const after = events.slice(events.indexOf(retry as AgentStreamEvent) + 1);
    expect(after.flatMap((e) => (e.type === "text-delta" ? [e.delta] : [])).join("")).toBe("final text");
  });

  it("falls back to generate() as one finish event for a model without stream()", async () => {
    const inner = script();
    const plain: Model = { id: inner.id, generate: (r): Promise<ModelResponse> => inner.generate(r) };
    const events: string[] = [];
    for await (const e of new Agent({ name: "s", model: plain, tools: [lookup()] }).stream("go")) events.push(e.type);
    expect(events).not.toContain("text-delta");
    expect(events.at(-1)).toBe("run-finish");
  });

  it("run() asks the model with generate(), not stream()", async () => {
    const inner = script();
    let streams = 0;
    const model: Model = {
      id: inner.id,
      generate: (r) => inner.generate(r),
      stream: (r) => {
        streams++;
        return inner.stream(r);
      },
    };
    await new Agent({ name: "s", model, tools: [lookup()] }).run("go");
    expect(streams).toBe(0);
  });
});
