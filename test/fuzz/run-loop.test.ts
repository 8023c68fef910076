import {
  Agent,
  type Message,
  RepeatedCallError,
  Retry,
  type RunError,
  type RunResult,
  RunState,
  type ToolArgs,
  ToolCallFailedError,
  type ToolContext,
  ToolError,
  tool,
} from "toolwright";
import { FakeModel, type ScriptedCall } from "toolwright/testing";
import { describe, expect, it } from "vitest";

/** mulberry32: a small seeded PRNG, so every run is reproducible from its seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const RUNS = 1_000;
const schema = {
  type: "object",
  properties: { id: { type: "string" }, n: { type: "integer" } },
  required: ["id"],
  additionalProperties: false,
} as const;

interface Execution {
  readonly tool: string;
  readonly callId: string;
  readonly args: ToolArgs;
}

/** Tools whose effects must never repeat for one call id. */
const NON_IDEMPOTENT = new Set(["write", "gated", "maybeGated"]);
const gatedByPredicate = (args: ToolArgs) => typeof args.n === "number" && args.n % 2 === 0;

function makeTools(random: () => number, executions: Execution[]) {
  const record = (name: string, args: ToolArgs, ctx: ToolContext) =>
    executions.push({ tool: name, callId: ctx.callId, args });
  const roll = () => random();
  const define = (name: string, options: object, body: (args: ToolArgs, ctx: ToolContext) => unknown) =>
    tool({ name, description: `Fuzz tool ${name} for the run loop.`, parameters: schema, ...options, execute: body });
  return [
    define("read", { readOnly: true }, (args, ctx) => {
      record("read", args, ctx);
      if (roll() < 0.3) throw new ToolError("busy", { retryable: true });
      return { id: args.id };
    }),
    define("write", {}, (args, ctx) => {
      record("write", args, ctx);
      const r = roll();
      if (r < 0.15) throw new ToolError("conflict", { retryable: true });
      if (r < 0.25) throw new Error("unexpected bug");
      return "written";
    }),
    define("gated", { destructive: true, needsApproval: true }, (args, ctx) => {
      record("gated", args, ctx);
      return "done";
    }),
    define("maybeGated", { needsApproval: (_ctx: unknown, args: ToolArgs) => gatedByPredicate(args) }, (args, ctx) => {
      record("maybeGated", args, ctx);
      return "ok";
    }),
    define("picky", { idempotent: true, retries: 1 }, (args, ctx) => {
      record("picky", args, ctx);
      if (roll() < 0.5) throw new Retry("use a shorter id");
      return "fine";
    }),
    define("slow", { readOnly: true, timeoutMs: 1 }, (args, ctx) => {
      record("slow", args, ctx);
      return new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve("late"), { once: true }));
    }),
  ];
}

const NAMES = ["read", "write", "gated", "maybeGated", "picky", "slow", "ghost"];

function randomCall(random: () => number): ScriptedCall {
  const name = NAMES[Math.floor(random() * NAMES.length)] as string;
  const r = random();
  const args =
    r < 0.08 ? '{"id": ' : r < 0.15 ? { id: 5 } : { id: `o-${Math.floor(random() * 3)}`, n: Math.floor(random() * 4) };
  return { name, args };
}

/** Each assistant turn with calls is followed by exactly one result per call, in call order, and nothing else. */
function assertWellFormed(messages: readonly Message[], allowOpenTail: boolean): void {
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i] as Message;
    if (m.role === "tool") throw new Error(`stray tool result at ${i}`);
    if (m.role !== "assistant" || m.toolCalls.length === 0) continue;
    const results = messages.slice(i + 1, i + 1 + m.toolCalls.length);
    if (allowOpenTail && i + 1 + results.length >= messages.length && results.length < m.toolCalls.length) {
      expect(results.every((r) => r.role === "tool")).toBe(true);
      return;
    }
    expect(results.map((r) => (r.role === "tool" ? r.callId : `<${r.role}>`))).toEqual(m.toolCalls.map((c) => c.id));
    i += m.toolCalls.length;
  }
}

/**
 * The only ways a fuzz run may end in an error: the one tool that throws a plain bug, under
 * `onToolException: "fail"`; or a call repeated up to the limit, under `repeatedCalls.action:
 * "fail"`. Anything else (a limit, an abort, an internal error) is a bug in the loop.
 */
function expectedEnd(error: unknown, onToolException: string, repeatAction: string): error is RunError {
  if (error instanceof ToolCallFailedError) {
    return (
      onToolException === "fail" &&
      error.toolName === "write" &&
      error.source === "tool" &&
      error.cause instanceof Error &&
      error.cause.message.endsWith("threw: unexpected bug")
    );
  }
  return error instanceof RepeatedCallError && repeatAction === "fail" && error.count >= 3;
}

async function fuzzOne(seed: number) {
  const random = prng(seed);
  const executions: Execution[] = [];
  const approved = new Set<string>();
  const turns = 1 + Math.floor(random() * 5);
  const model = FakeModel.script(
    Array.from({ length: 12 }, (_, i) => () => {
      if (i >= turns) return "final answer";
      const n = Math.floor(random() * 4);
      return {
        toolCalls: Array.from({ length: n }, () => randomCall(random)),
        usage: { inputTokens: 10, outputTokens: 2 },
      };
    }),
  );
  const policies = ["return_to_model", "return_generic", "fail"] as const;
  const onToolException = policies[Math.floor(random() * (random() < 0.9 ? 2 : 3))] as (typeof policies)[number];
  const repeatAction = random() < 0.5 ? "tell_model" : "fail";
  const agent = new Agent({
    name: "fuzz",
    model,
    tools: makeTools(random, executions),
    maxTurns: 8,
    maxConcurrentTools: 1 + Math.floor(random() * 4),
    toolRetry: { maxAttempts: 3, initialBackoffMs: 0 },
    onToolException,
    repeatedCalls: { limit: 3, action: repeatAction },
  });

  let result: RunResult | undefined;
  let ended: RunError | undefined;
  try {
    result = await agent.run("go");
    while (result.status === "interrupted") {
      let state = result.state as RunState;
      assertWellFormed(result.messages, true);
      for (const i of state.interruptions) {
        const r = random();
        if (r < 0.6) {
          approved.add(i.callId);
          state.approve(i.callId, r < 0.1 ? { args: { id: "edited" } } : {});
        } else state.reject(i.callId, "no");
      }
      if (random() < 0.5) state = RunState.fromJSON(agent, state.toString());
      result = await agent.run(state);
    }
  } catch (error) {
    if (!expectedEnd(error, onToolException, repeatAction)) {
      throw new Error(`seed ${seed}: the run ended with an error this configuration never asks for`, { cause: error });
    }
    ended = error;
  }
  const final = result?.status === "completed" ? result : ended?.result;
  return { executions, approved, final: final as RunResult, ended, seed };
}

describe("run loop fuzz", () => {
  it(`keeps its guarantees over ${RUNS} seeded random runs`, async () => {
    let gatedRuns = 0;
    let executionsTotal = 0;
    const outcomes = new Map<string, number>();
    const ends = new Map<string, number>();
    for (let seed = 1; seed <= RUNS; seed++) {
      const { executions, approved, final, ended } = await fuzzOne(seed);
      if (ended) ends.set(ended.name, (ends.get(ended.name) ?? 0) + 1);
      executionsTotal += executions.length;
      // No gated tool ran without approval.
      for (const e of executions) {
        const gated = e.tool === "gated" || (e.tool === "maybeGated" && gatedByPredicate(e.args));
        if (gated) {
          gatedRuns++;
          expect(approved.has(e.callId), `seed ${seed}: ${e.tool} ${e.callId} ran unapproved`).toBe(true);
        }
      }
      // No non-idempotent tool ran twice for one call id.
      const seen = new Set<string>();
      for (const e of executions.filter((x) => NON_IDEMPOTENT.has(x.tool))) {
        expect(seen.has(e.callId), `seed ${seed}: ${e.tool} ${e.callId} ran twice`).toBe(false);
        seen.add(e.callId);
      }
      // Every transcript is well-formed: each call has exactly one result, in order.
      assertWellFormed(final.messages, false);
      for (const m of final.messages)
        if (m.role === "tool") outcomes.set(m.outcome, (outcomes.get(m.outcome) ?? 0) + 1);
    }
    // The fuzz reached the interesting paths.
    expect(gatedRuns).toBeGreaterThan(50);
    expect(executionsTotal).toBeGreaterThan(2_000);
    for (const kind of ["ok", "invalid_arguments", "unknown_tool", "tool_error", "retry", "timeout", "rejected"]) {
      expect(outcomes.get(kind) ?? 0, `outcome ${kind}`).toBeGreaterThan(20);
    }
    // Runs did end in the error their configuration asks for (and in no other: checked per run).
    expect(ends.get("ToolCallFailedError") ?? 0).toBeGreaterThan(0);
  });
});
