import { afterEach, describe, expect, it } from "vitest";
import type { Model } from "../../src/model/model.js";
import { ProviderError } from "../../src/providers/errors.js";
import type { HttpModelOptions } from "../../src/providers/http-model.js";
import type { RetryInfo } from "../../src/providers/retry.js";
import { type Driven, drive } from "./drive.js";
import type { Loopback, ScriptedTurn, ScriptStep } from "./servers/loopback.js";

/** What a provider plugs into the shared suite. */
export interface ConformanceSetup {
  readonly name: string;
  /** Starts this provider's loopback server, answering request N with step N of the script. */
  readonly makeServer: (script: readonly ScriptStep[]) => Promise<Loopback>;
  readonly makeModel: (url: string, options: HttpModelOptions) => Model;
}

/** Two parallel calls with fragmented arguments, then a final answer. */
export const TWO_TURNS: readonly ScriptedTurn[] = [
  {
    text: "Checking both.",
    calls: [
      { id: "call_w1", name: "get_weather", args: { city: "Paris", units: "c" } },
      { id: "call_t1", name: "get_time", args: { zone: "Europe/Paris" } },
    ],
    usage: { input: 120, output: 30, cached: 100 },
  },
  { text: "Foggy, 16°C, and it is noon.", usage: { input: 200, output: 12 } },
];

/** Tiny waits so retries take milliseconds, and a log of every retry the model made. */
export function fastRetry(log: RetryInfo[]): HttpModelOptions {
  return { retry: { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 20 }, onRetry: (info) => log.push(info) };
}

/** Asserts the transcript of a completed TWO_TURNS run: well formed, each tool run exactly once. */
export function expectCompletedLoop(run: Driven): void {
  expect(run.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "tool", "assistant"]);
  const first = run.messages[1];
  if (first?.role !== "assistant") throw new Error("expected an assistant turn");
  expect(first.toolCalls.map((c) => c.name)).toEqual(["get_weather", "get_time"]);
  expect(run.executions).toEqual([
    { name: "get_weather", args: { city: "Paris", units: "c" } },
    { name: "get_time", args: { zone: "Europe/Paris" } },
  ]);
  const results = run.messages.filter((m) => m.role === "tool");
  expect(results.map((m) => m.callId)).toEqual(first.toolCalls.map((c) => c.id));
  expect(run.messages.at(-1)).toMatchObject({
    role: "assistant",
    content: "Foggy, 16°C, and it is noon.",
    toolCalls: [],
  });
}

/**
 * The suite every provider adapter runs against its own loopback server (hono-style):
 * multi-turn loops streamed and not, fragmented arguments, parallel calls, usage, and
 * every fault the sheet names.
 */
export function runProviderConformance(setup: ConformanceSetup): void {
  let server: Loopback | undefined;
  const start = async (script: readonly ScriptStep[]) => {
    server = await setup.makeServer(script);
    return server;
  };
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  describe(`${setup.name} conformance`, () => {
    for (const stream of [false, true]) {
      const mode = stream ? "streamed" : "non-streamed";

      it(`runs a multi-turn tool loop with two calls in one turn (${mode})`, async () => {
        const s = await start(TWO_TURNS);
        const run = await drive(setup.makeModel(s.url, {}), "Weather and time in Paris?", { stream });
        expectCompletedLoop(run);
        expect(s.requests).toHaveLength(2);
        expect(run.responses[0]?.finishReason).toBe("tool_calls");
        expect(run.responses[1]?.finishReason).toBe("stop");
        expect(run.responses[0]?.usage.outputTokens).toBe(30);
        expect(run.responses[0]?.usage.cachedInputTokens).toBe(100);
        expect(run.responses[0]?.usage.inputTokens).toBeGreaterThanOrEqual(120);
      });

      for (const fault of ["429", "500", "529", "reset", "truncate", "error-event"] as const) {
        it(`recovers from ${fault} by sending the whole turn again (${mode})`, async () => {
          const log: RetryInfo[] = [];
          const first = TWO_TURNS[0] as ScriptedTurn;
          const s = await start([
            { fault, ...(fault === "429" ? { retryAfter: "1" } : {}) },
            first,
            TWO_TURNS[1] as ScriptedTurn,
          ]);
          const run = await drive(setup.makeModel(s.url, fastRetry(log)), "Weather and time in Paris?", { stream });
          expectCompletedLoop(run);
          expect(s.requests).toHaveLength(3);
          expect(s.requests[1]?.body).toEqual(s.requests[0]?.body);
          expect(log).toHaveLength(1);
          expect(log[0]?.error).toBeInstanceOf(ProviderError);
          // retry-after: 1 s is honoured up to the 20 ms cap; without it the backoff is about 1 ms.
          if (fault === "429") expect(log[0]?.delayMs).toBe(20);
          else expect(log[0]?.delayMs).toBeLessThanOrEqual(1);
          if (stream && (fault === "truncate" || fault === "error-event")) {
            const retryAt = run.events.findIndex((e) => e.type === "retry");
            expect(retryAt).toBeGreaterThan(0);
          }
        });
      }

      for (const at of ["inside-frame", "inside-char"] as const) {
        it(`sends the turn again when the body ends cleanly ${at.replace("-", " ")} (${mode})`, async () => {
          const log: RetryInfo[] = [];
          // A multi-byte character in the turn the cut body carries, to cut inside it.
          const first = { ...(TWO_TURNS[0] as ScriptedTurn), text: "Checking both for Zürich." };
          const s = await start([{ fault: "truncate", at }, first, TWO_TURNS[1] as ScriptedTurn]);
          const run = await drive(setup.makeModel(s.url, fastRetry(log)), "Weather and time in Paris?", { stream });
          // The half frame was never taken as a turn: the whole turn came from the retry.
          expect(s.requests).toHaveLength(3);
          expect(log).toHaveLength(1);
          expect(log[0]?.error).toMatchObject({ retryable: true });
          expectCompletedLoop(run);
          expect(run.messages[1]).toMatchObject({ role: "assistant", content: "Checking both for Zürich." });
        });
      }

      it(`reads the model each response names, not the one asked for (${mode})`, async () => {
        const s = await start([
          { ...(TWO_TURNS[0] as ScriptedTurn), model: "snapshot-2026-01-15" },
          { ...(TWO_TURNS[1] as ScriptedTurn), model: "snapshot-2026-02-01" },
        ]);
        const run = await drive(setup.makeModel(s.url, {}), "Weather and time in Paris?", { stream });
        expect(run.responses.map((r) => r.model)).toEqual(["snapshot-2026-01-15", "snapshot-2026-02-01"]);
      });

      it(`decodes a character split across two reads (${mode})`, async () => {
        const s = await start([
          TWO_TURNS[0] as ScriptedTurn,
          { ...(TWO_TURNS[1] as ScriptedTurn), splitInsideChar: true },
        ]);
        const run = await drive(setup.makeModel(s.url, {}), "Weather and time in Paris?", { stream });
        expectCompletedLoop(run);
        expect(s.requests).toHaveLength(2);
      });

      it(`fails with a typed, retryable ProviderError when retries run out (${mode})`, async () => {
        const log: RetryInfo[] = [];
        const s = await start([{ fault: "529" }, { fault: "500" }, { fault: "529" }]);
        const run: Driven = { messages: [], events: [], responses: [], executions: [] };
        const error = await drive(setup.makeModel(s.url, fastRetry(log)), "Weather?", { stream, driven: run }).catch(
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(ProviderError);
        expect(error).toMatchObject({ status: 529, retryable: true });
        expect((error as ProviderError).provider).toBeTruthy();
        expect(s.requests).toHaveLength(3);
        expect(run.messages).toEqual([{ role: "user", content: "Weather?" }]);
        expect(run.executions).toEqual([]);
      });

      it(`does not retry a 400 and says what the provider said (${mode})`, async () => {
        const s = await start([{ fault: "400" }, TWO_TURNS[0] as ScriptedTurn]);
        const error = await drive(setup.makeModel(s.url, fastRetry([])), "Weather?", { stream }).catch(
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(ProviderError);
        expect(error).toMatchObject({ status: 400, retryable: false });
        expect((error as Error).message).toMatch(/HTTP 400.*scripted 400/);
        expect(s.requests).toHaveLength(1);
      });

      it(`stops at the caller's abort signal (${mode})`, async () => {
        const s = await start([{ fault: "500" }, ...TWO_TURNS]);
        const controller = new AbortController();
        const model = setup.makeModel(s.url, {
          retry: { maxRetries: 2, initialDelayMs: 5_000, maxDelayMs: 5_000 },
          onRetry: () => controller.abort(new Error("user cancelled")),
        });
        const error = await drive(model, "Weather?", { stream, signal: controller.signal }).catch((e: unknown) => e);
        expect((error as Error).message).toBe("user cancelled");
        expect(s.requests).toHaveLength(1);
      });
    }

    it("streams text deltas and tool-call start, argument fragments and end, then finish", async () => {
      const s = await start(TWO_TURNS);
      const run = await drive(setup.makeModel(s.url, {}), "Weather and time in Paris?", { stream: true });
      const turn = run.events.slice(0, run.events.findIndex((e) => e.type === "finish") + 1);
      const text = turn.flatMap((e) => (e.type === "text-delta" ? [e.delta] : [])).join("");
      expect(text).toBe("Checking both.");
      const starts = turn.filter((e) => e.type === "tool-call-start");
      expect(starts.map((e) => [e.index, e.name])).toEqual([
        [0, "get_weather"],
        [1, "get_time"],
      ]);
      for (const [index, args] of [
        [0, { city: "Paris", units: "c" }],
        [1, { zone: "Europe/Paris" }],
      ] as const) {
        const deltas = turn.flatMap((e) => (e.type === "tool-call-delta" && e.index === index ? [e.delta] : []));
        expect(JSON.parse(deltas.join(""))).toEqual(args);
        const end = turn.find((e) => e.type === "tool-call-end" && e.index === index);
        expect(end).toBeDefined();
      }
      expect(turn.at(-1)?.type).toBe("finish");
    });
  });
}
