import { describe, expect, it } from "vitest";
import {
  type CompiledSpec,
  invoke,
  Retry,
  runTool,
  SPEC_VERSION,
  type ToolContext,
  ToolError,
  ToolExceptionError,
  ToolShapeError,
  ToolTimeoutError,
  tool,
} from "../src/index.js";

function specOf(overrides: Partial<CompiledSpec> = {}): CompiledSpec {
  return {
    $toolwright: SPEC_VERSION,
    name: "greet",
    description: "Greet someone.",
    parameters: {
      type: "object",
      properties: { name: { type: "string" }, times: { type: "integer" } },
      required: ["name"],
      additionalProperties: false,
    },
    slots: [{ kind: "arg", name: "name" }, { kind: "context" }, { kind: "arg", name: "times" }],
    flags: {},
    source: { file: "greet.ts", line: 1 },
    ...overrides,
  } as CompiledSpec;
}

const never = () => new Promise<never>(() => {});

describe("runTool: context injection and positional mapping", () => {
  it("maps the arguments onto positions and injects the context in the middle", async () => {
    const seen: unknown[] = [];
    const greet = tool(
      (name: string, ctx: ToolContext<{ greeting: string }>, times = 1) => {
        seen.push(ctx);
        return `${ctx.deps.greeting} ${name}`.repeat(times);
      },
      undefined,
      specOf(),
    );
    const usage = { inputTokens: 1, outputTokens: 2, cachedInputTokens: 0, requests: 1, costUsd: 0.01 };
    const result = await greet.invoke('{"name":"Ada","times":"2"}', {
      deps: { greeting: "hi" },
      runId: "run_1",
      callId: "call_9",
      step: 3,
      attempt: 2,
      usage,
    });
    expect(result).toEqual({ value: "hi Adahi Ada", content: "hi Adahi Ada", truncated: false });
    const ctx = seen[0] as ToolContext<{ greeting: string }>;
    expect([ctx.runId, ctx.callId, ctx.toolName, ctx.step, ctx.attempt, ctx.usage]).toEqual([
      "run_1",
      "call_9",
      "greet",
      3,
      2,
      usage,
    ]);
    expect(ctx.signal).toBeInstanceOf(AbortSignal);
    expect(Object.isFrozen(ctx)).toBe(true);
  });

  it("fills defaults for a missing context and leaves absent optional parameters undefined", async () => {
    const seen: unknown[] = [];
    const greet = tool(
      (name: string, ctx: ToolContext, times?: number) => {
        seen.push(ctx, times);
        return name;
      },
      undefined,
      specOf(),
    );
    await greet.invoke({ name: "Ada" });
    const [ctx, times] = seen as [ToolContext, unknown];
    expect(times).toBeUndefined();
    expect(ctx.runId).toMatch(/^run_[0-9a-f-]{36}$/);
    expect(ctx.callId).toMatch(/^call_[0-9a-f-]{36}$/);
    expect([ctx.toolName, ctx.step, ctx.attempt, ctx.deps]).toEqual(["greet", 1, 1, undefined]);
    expect(ctx.usage).toEqual({ inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, requests: 0, costUsd: 0 });
    expect(() => ctx.log.info("quiet")).not.toThrow();
    // Outside an agent or an MCP server nobody hears progress: reporting it does nothing.
    expect(ctx.progress(1, 2, "half")).toBeUndefined();
  });

  it("passes the caller's ctx.progress to the tool", async () => {
    const reports: unknown[][] = [];
    const greet = tool(
      (name: string, ctx: ToolContext) => {
        ctx.progress(1, 1, `greeted ${name}`);
        return name;
      },
      undefined,
      specOf(),
    );
    await greet.invoke({ name: "Ada" }, { progress: (...report) => reports.push(report) });
    expect(reports).toEqual([[1, 1, "greeted Ada"]]);
  });

  it("hands the whole arguments object to a destructured parameter", async () => {
    const point = tool(({ x, y }: { x: number; y: number }) => x * y, undefined, {
      ...specOf(),
      parameters: {
        type: "object",
        properties: { x: { type: "number" }, y: { type: "number" } },
        required: ["x", "y"],
      },
      slots: [{ kind: "object" }],
    } as CompiledSpec);
    expect((await point.invoke({ x: 3, y: "4" })).content).toBe("12");
  });
});

describe("runTool: time limits", () => {
  it("aborts the signal and rejects with ToolTimeoutError even when the tool ignores the signal", async () => {
    let signal: AbortSignal | undefined;
    const slow = tool(
      (_name: string, ctx: ToolContext) => {
        signal = ctx.signal;
        return never();
      },
      { timeoutMs: 20 },
      specOf({ slots: [{ kind: "arg", name: "name" }, { kind: "context" }] }),
    );
    const error = await slow.invoke({ name: "x" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolTimeoutError);
    expect((error as ToolTimeoutError).outcome).toBe("timeout");
    expect((error as ToolTimeoutError).timeoutMs).toBe(20);
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toBe(error);
  });

  it("uses the agent-level limit only when the tool has none", async () => {
    const noLimit = tool(never, undefined, specOf({ slots: [] }));
    await expect(runTool(noLimit, { name: "x" }, {}, { timeoutMs: 10 })).rejects.toMatchObject({ timeoutMs: 10 });
    const ownLimit = tool(never, { timeoutMs: 15 }, specOf({ slots: [] }));
    await expect(runTool(ownLimit, { name: "x" }, {}, { timeoutMs: 10_000 })).rejects.toMatchObject({ timeoutMs: 15 });
  });

  it("cancels with the parent signal's reason", async () => {
    const parent = new AbortController();
    let signal: AbortSignal | undefined;
    const waits = tool(
      (ctx: ToolContext) => {
        signal = ctx.signal;
        return never();
      },
      undefined,
      specOf({ slots: [{ kind: "context" }] }),
    );
    const running = waits.invoke({ name: "x" }, { signal: parent.signal });
    const reason = new Error("run cancelled");
    parent.abort(reason);
    await expect(running).rejects.toBe(reason);
    expect(signal?.reason).toBe(reason);
  });

  it("cancels a tool that takes no context (and so gets no signal of its own) with the parent's reason", async () => {
    const parent = new AbortController();
    const waits = tool(never, undefined, specOf({ slots: [{ kind: "arg", name: "name" }] }));
    const running = waits.invoke({ name: "x" }, { signal: parent.signal });
    const reason = new Error("run cancelled");
    parent.abort(reason);
    await expect(running).rejects.toBe(reason);
  });

  it("does not start a tool whose parent signal is already aborted", async () => {
    let ran = false;
    const t = tool(
      () => {
        ran = true;
      },
      undefined,
      specOf({ slots: [] }),
    );
    await expect(t.invoke({ name: "x" }, { signal: AbortSignal.abort(new Error("gone")) })).rejects.toThrow("gone");
    expect(ran).toBe(false);
  });
});

describe("runTool: errors", () => {
  it("passes ToolError and Retry through, and wraps anything else", async () => {
    const failing = (thrown: unknown) =>
      tool(
        () => {
          throw thrown;
        },
        undefined,
        specOf({ slots: [] }),
      );
    const toolError = new ToolError("no such order", { retryable: true });
    await expect(failing(toolError).invoke({ name: "x" })).rejects.toBe(toolError);
    const retry = new Retry("ask for the id");
    await expect(failing(retry).invoke({ name: "x" })).rejects.toBe(retry);
    const bug = new TypeError("x is undefined");
    const wrapped = await failing(bug)
      .invoke({ name: "x" })
      .catch((e: unknown) => e);
    expect(wrapped).toBeInstanceOf(ToolExceptionError);
    expect((wrapped as ToolExceptionError).cause).toBe(bug);
    await expect(failing("a string").invoke({ name: "x" })).rejects.toThrow('tool "greet" threw: a string');
  });

  it("checks the return value against the output schema, as the model would read it", async () => {
    const outputSchema = {
      type: "object",
      properties: { at: { type: "string", format: "date-time" }, n: { type: "integer" } },
      required: ["n"],
    };
    const good = tool(() => ({ at: new Date(0), n: 1 }), undefined, specOf({ slots: [], outputSchema }));
    expect((await good.invoke({ name: "x" })).content).toBe('{"at":"1970-01-01T00:00:00.000Z","n":1}');
    const bad = tool(() => ({ n: "one" }), undefined, specOf({ slots: [], outputSchema }));
    const error = await bad.invoke({ name: "x" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolShapeError);
    expect((error as ToolShapeError).message).toBe(
      'tool "greet" returned a value that does not match its declared return type:\n- /n: expected integer, got "one" (a string)\nFix the tool so it returns what its signature promises, or widen the return type.',
    );
  });
});

describe("runTool: unserializable results", () => {
  it("reports a shape error, not a JSON parse error, when the result cannot be serialized", async () => {
    const hostile = {
      toJSON() {
        throw new Error("no way");
      },
    };
    const t = tool(() => hostile, undefined, specOf({ slots: [], outputSchema: { type: "object" } }));
    await expect(t.invoke({ name: "x" })).rejects.toThrow(
      '- expected object, got "[unserializable result: no way]" (a string)',
    );
  });
});

describe("runTool: result caps", () => {
  it("caps at 100,000 characters by default, per tool, and per call", async () => {
    const long = tool(() => "x".repeat(100_010), undefined, specOf({ slots: [] }));
    const byDefault = await long.invoke({ name: "x" });
    expect(byDefault.truncated).toBe(true);
    expect(byDefault.content.endsWith("\n[toolwright: result truncated, 10 of 100010 characters cut]")).toBe(true);
    const perTool = tool(() => "abcdef", { maxResultChars: 2 }, specOf({ slots: [] }));
    expect((await perTool.invoke({ name: "x" })).content).toBe(
      "ab\n[toolwright: result truncated, 4 of 6 characters cut]",
    );
    expect((await runTool(perTool, { name: "x" }, {}, { maxResultChars: 5 })).content).toBe(
      "abcde\n[toolwright: result truncated, 1 of 6 characters cut]",
    );
  });
});

describe("invoke(tool, args, ctx)", () => {
  it("works for a protocol object, with this bound to it", async () => {
    const counter = {
      name: "count",
      description: "Count up.",
      parameters: { type: "object", properties: { by: { type: "integer" } }, required: ["by"] },
      total: 10,
      execute(args: { by: number }) {
        this.total += args.by;
        return { total: this.total };
      },
    };
    expect(await invoke(counter as never, '{"by": "5"}')).toEqual({
      value: { total: 15 },
      content: '{"total":15}',
      truncated: false,
    });
    await expect(invoke(counter as never, "{}")).rejects.toMatchObject({ outcome: "invalid_arguments" });
  });
});
