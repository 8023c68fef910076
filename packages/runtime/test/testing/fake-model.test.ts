import { describe, expect, it } from "vitest";
import type { ModelStreamEvent } from "../../src/index.js";
import { FakeModel } from "../../src/testing/index.js";

const request = { messages: [{ role: "user" as const, content: "hi" }], tools: [] };

describe("FakeModel.script", () => {
  it("plays text, tool calls and usage, and records every request", async () => {
    const model = FakeModel.script([
      {
        text: "checking",
        toolCalls: [
          { name: "a", args: { x: 1 } },
          { name: "b", args: "{broken", id: "mine" },
        ],
        usage: { inputTokens: 4 },
      },
      "bye",
    ]);
    const first = await model.generate(request);
    expect(first.message.toolCalls).toEqual([
      { id: "call_1_0", name: "a", arguments: '{"x":1}' },
      { id: "mine", name: "b", arguments: "{broken" },
    ]);
    expect(first.usage).toEqual({ inputTokens: 4, outputTokens: 0, cachedInputTokens: 0 });
    expect(first.finishReason).toBe("tool_calls");
    expect((await model.generate(request)).message.content).toBe("bye");
    expect(model.requests).toHaveLength(2);
    expect(model.remaining).toBe(0);
    await expect(model.generate(request)).rejects.toThrow(/has 2 turn\(s\) but got request 3/);
  });

  it("plays a turn that is a function of the request", async () => {
    const model = FakeModel.script([(r) => `you said ${r.messages.at(-1)?.content}`]);
    expect((await model.generate(request)).message.content).toBe("you said hi");
  });

  it("streams text and arguments in fragments, ending with the whole turn", async () => {
    const model = FakeModel.script([{ text: "hello world", toolCalls: [{ name: "a", args: { city: "Paris" } }] }], {
      chunkSize: 3,
    });
    const events: ModelStreamEvent[] = [];
    for await (const e of model.stream(request)) events.push(e);
    const text = events.flatMap((e) => (e.type === "text-delta" ? [e.delta] : []));
    expect(text).toEqual(["hel", "lo ", "wor", "ld"]);
    const args = events.flatMap((e) => (e.type === "tool-call-delta" ? [e.delta] : []));
    expect(args.join("")).toBe('{"city":"Paris"}');
    expect(args.length).toBeGreaterThan(3);
    const last = events.at(-1);
    expect(last?.type === "finish" && last.response.message.content).toBe("hello world");
  });
});
