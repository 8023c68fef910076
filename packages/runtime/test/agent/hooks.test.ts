import { describe, expect, it } from "vitest";
import { Agent, type ModelMiddleware, ToolCallFailedError } from "../../src/index.js";
import { FakeModel } from "../../src/testing/index.js";
import { stringTool } from "./helpers.js";

function setup(hooks: ConstructorParameters<typeof Agent>[0]["hooks"], args: Record<string, unknown> = { id: "A-1" }) {
  const ran: string[] = [];
  const lookup = stringTool("lookup", ({ id }) => {
    ran.push(id);
    return `status of ${id}: open`;
  });
  const model = FakeModel.script([{ toolCalls: [{ name: "lookup", args }] }, "done"]);
  const agent = new Agent({ name: "hooked", model, tools: [lookup], hooks });
  return {
    ran,
    model,
    agent,
    toolResult: (r: Awaited<ReturnType<Agent["run"]>>) => r.messages.find((m) => m.role === "tool"),
  };
}

describe("beforeTool", () => {
  it("blocks a call: it does not run and the model reads a rejected result", async () => {
    const s = setup({ beforeTool: () => ({ action: "block", message: "lookups are paused" }) });
    const result = await s.agent.run("go");
    expect(s.ran).toEqual([]);
    expect(s.toolResult(result)).toMatchObject({ outcome: "rejected", content: "Not run: lookups are paused" });
  });

  it("changes the arguments, which are validated again", async () => {
    const s = setup({
      beforeTool: ({ args }) => ({ action: "replace_args", args: { id: String(args.id).toLowerCase() } }),
    });
    await s.agent.run("go");
    expect(s.ran).toEqual(["a-1"]);

    const bad = setup({ beforeTool: () => ({ action: "replace_args", args: { id: 5 } }) });
    const result = await bad.agent.run("go");
    expect(bad.ran).toEqual([]);
    expect(bad.toolResult(result)?.outcome).toBe("invalid_arguments");
  });

  it("answers a call from a cache without running it", async () => {
    const cache = new Map([["A-1", { id: "A-1", status: "cached" }]]);
    const s = setup({
      beforeTool: ({ args }) => (cache.has(args.id) ? { action: "answer", value: cache.get(args.id) } : undefined),
    });
    const result = await s.agent.run("go");
    expect(s.ran).toEqual([]);
    expect(s.toolResult(result)).toMatchObject({ outcome: "ok", content: '{"id":"A-1","status":"cached"}' });
  });

  it("runs hooks in order; the first decision wins, and sees the call's context", async () => {
    const order: string[] = [];
    const s = setup({
      beforeTool: [
        ({ ctx, tool }) => {
          order.push(`first ${tool.name} ${ctx.callId}`);
          return undefined;
        },
        () => {
          order.push("second");
          return { action: "block", message: "no" };
        },
        () => {
          order.push("third");
          return undefined;
        },
      ],
    });
    await s.agent.run("go");
    expect(order).toEqual(["first lookup call_1_0", "second"]);
  });
});

describe("afterTool", () => {
  it("changes the result the model reads", async () => {
    const s = setup({
      afterTool: ({ result }) => ({ outcome: result.outcome, content: result.content.replace("open", "[redacted]") }),
    });
    const result = await s.agent.run("go");
    expect(s.toolResult(result)?.content).toBe("status of A-1: [redacted]");
    expect(s.model.requests[1]?.messages.at(-1)?.content).toBe("status of A-1: [redacted]");
  });
});

describe("model middleware", () => {
  it("wraps every model call, apart from the tool chain: it can change the request and see the response", async () => {
    const log: string[] = [];
    const tag: ModelMiddleware = async function* (request, next) {
      log.push(`request with ${request.messages.length} messages`);
      yield* next({ ...request, instructions: `${request.instructions ?? ""} Be brief.` });
      log.push("response");
    };
    const s = setup({ model: [tag] });
    await s.agent.run("go");
    expect(log).toEqual(["request with 1 messages", "response", "request with 3 messages", "response"]);
    expect(s.model.requests.map((r) => r.instructions)).toEqual([" Be brief.", " Be brief."]);
    expect(s.ran).toEqual(["A-1"]);
  });

  it("can answer a turn itself (a cached response) without calling the model", async () => {
    const cached: ModelMiddleware = async function* () {
      yield {
        type: "finish",
        response: {
          message: { role: "assistant", content: "from cache", toolCalls: [] },
          usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 },
          finishReason: "stop",
        },
      };
    };
    const s = setup({ model: [cached] });
    const result = await s.agent.run("go");
    expect(result.output).toBe("from cache");
    expect(s.model.requests).toHaveLength(0);
  });
});

describe("a hook that throws", () => {
  it("ends the run with ToolCallFailedError (source: hook) carrying the partial result", async () => {
    const s = setup({
      beforeTool: () => {
        throw new Error("cache offline");
      },
    });
    const error = (await s.agent.run("go").catch((e: unknown) => e)) as ToolCallFailedError;
    expect(error).toBeInstanceOf(ToolCallFailedError);
    expect(error.source).toBe("hook");
    expect(error.message).toMatch(/a tool hook threw around tool "lookup" \(call call_1_0\): Error: cache offline/);
    expect(s.ran).toEqual([]);
    expect(error.result.messages.map((m) => m.role)).toEqual(["user"]);
  });
});
