import { Agent, type AgentOptions, type Message, type ToolContext } from "../../src/index.js";
import {
  type DurableOptions,
  RunHeldError,
  type RunStore,
  resumeRun,
  StoreUnavailableError,
} from "../../src/store/index.js";
import { FakeModel, type ScriptedTurn } from "../../src/testing/index.js";
import { stringTool } from "../agent/helpers.js";

/**
 * A model that answers from the transcript alone, so any worker can play any turn of any
 * run: the first turn asks for `lookup` and `refund`, the next one answers with each
 * result's outcome (`Done: lookup=ok, refund=ok`): what the model was told, in one line.
 */
export function refundModel(beforeTurn?: (final: boolean) => Promise<void>): FakeModel {
  const answer = (request: { messages: readonly Message[] }): string | ScriptedTurn => {
    const results = request.messages.filter((m) => m.role === "tool");
    if (results.length === 0) {
      const n = request.messages.length;
      return {
        toolCalls: [
          { id: `lookup_${n}`, name: "lookup", args: { id: "A-1" } },
          { id: `refund_${n}`, name: "refund", args: { id: "A-1" } },
        ],
      };
    }
    return `Done: ${results.map((m) => (m.role === "tool" ? `${m.toolName}=${m.outcome}` : "")).join(", ")}`;
  };
  const turn = async (request: { messages: readonly Message[] }) => {
    await beforeTurn?.(request.messages.some((m) => m.role === "tool"));
    return answer(request);
  };
  return FakeModel.script(Array.from({ length: 10_000 }, () => (beforeTurn ? turn : answer)));
}

/** What the tools of {@link refundAgent} saw. */
export interface Effects {
  readonly lookups: string[];
  /** One entry per refund body that ran (every attempt). */
  readonly refunds: Array<{ readonly id: string; readonly key: string | undefined; readonly attempt: number }>;
  readonly sessions: Array<string | undefined>;
}

/**
 * An agent with a read-only `lookup` and a `refund` that needs approval; `during` runs
 * inside the refund's body (to kill the worker mid-call in tests, or to make it fail).
 */
export function refundAgent(
  options: {
    readonly during?: (ctx: ToolContext) => Promise<void> | void;
    /** Runs before each model turn (`final`: the one that answers), e.g. to lock the database there. */
    readonly beforeTurn?: (final: boolean) => Promise<void>;
    readonly approval?: boolean;
    readonly idempotent?: boolean;
    readonly name?: string;
    /** Gives the agent a third tool, `notify`: the same name with other tools. */
    readonly extraTool?: boolean;
    readonly timeoutMs?: number;
    readonly agent?: Partial<AgentOptions>;
  } = {},
): { agent: Agent; effects: Effects } {
  const effects: Effects = { lookups: [], refunds: [], sessions: [] };
  const lookup = stringTool(
    "lookup",
    ({ id }, ctx) => {
      effects.lookups.push(id);
      effects.sessions.push(ctx.sessionId);
      return { id, paid: 120 };
    },
    { readOnly: true },
  );
  const refund = stringTool(
    "refund",
    async ({ id }, ctx) => {
      effects.refunds.push({ id, key: ctx.idempotencyKey, attempt: ctx.attempt });
      await options.during?.(ctx);
      return `refunded ${id}`;
    },
    {
      needsApproval: options.approval ?? true,
      idempotent: options.idempotent ?? false,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    },
  );
  const notify = stringTool("notify", ({ id }) => `notified ${id}`);
  const agent = new Agent({
    name: options.name ?? "refunds",
    model: refundModel(options.beforeTurn),
    tools: options.extraTool ? [lookup, refund, notify] : [lookup, refund],
    ...options.agent,
  });
  return { agent, effects };
}

/** A promise that never settles: a tool body stuck when its worker dies. */
export function forever(): Promise<never> {
  return new Promise<never>(() => {});
}

/**
 * Resumes a run whose worker died, as soon as that worker's lease has run out: a
 * `RunHeldError` says until when, so this waits exactly that long, never a guessed time.
 */
export async function resumeWhenFree(
  agent: Agent,
  runId: string,
  options: DurableOptions,
): ReturnType<typeof resumeRun> {
  for (;;) {
    try {
      return await resumeRun(agent, runId, options);
    } catch (error) {
      if (!(error instanceof RunHeldError)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.max(1, error.leaseUntil - Date.now() + 1)));
    }
  }
}

/** The store methods a test can make fail. */
export type WriteName = "callStarted" | "callFinished" | "checkpoint" | "renew" | "claimNext";

/** How a write fails: `times` tries (Infinity: every one); `landed`: written, but the answer lost with the connection. */
export interface Fault {
  readonly times: number;
  readonly landed?: boolean;
  /** Only for calls whose key contains this (e.g. "refund"). */
  readonly callKey?: string;
  /** Only for checkpoints of this status. */
  readonly status?: string;
}

/**
 * `store` with some writes failing as a database outage would fail them (a
 * `StoreUnavailableError` for a terminated connection), before or after they land; `failed`
 * counts the failures each write gave.
 */
export function faultyStore(
  store: RunStore,
  faults: Partial<Record<WriteName, Fault>>,
): RunStore & { readonly failed: Record<string, number> } {
  const failed: Record<string, number> = {};
  const applies = (name: WriteName, args: readonly unknown[]): boolean => {
    const fault = faults[name];
    if (!fault || (failed[name] ?? 0) >= fault.times) return false;
    const call = args[2] as { callKey?: string; status?: string } | undefined;
    if (fault.callKey !== undefined && !call?.callKey?.includes(fault.callKey)) return false;
    if (fault.status !== undefined && call?.status !== fault.status) return false;
    return true;
  };
  return new Proxy(store, {
    get(target, key, receiver) {
      if (key === "failed") return failed;
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== "function") return value;
      const name = key as WriteName;
      if (!(name in faults)) return value.bind(target);
      return async (...args: unknown[]) => {
        if (!applies(name, args)) return value.apply(target, args);
        failed[name] = (failed[name] ?? 0) + 1;
        if (faults[name]?.landed) await value.apply(target, args);
        const cause = new Error("terminating connection due to administrator command");
        throw new StoreUnavailableError(name, cause, typeof args[0] === "string" ? args[0] : undefined);
      };
    },
  }) as RunStore & { readonly failed: Record<string, number> };
}

/** `store`, calling `after` once each write named `name` has landed (to kill a worker at that exact point). */
export function afterWrite(store: RunStore, name: WriteName, after: (...args: readonly unknown[]) => void): RunStore {
  return new Proxy(store, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== "function") return value;
      if (key !== name) return value.bind(target);
      return async (...args: unknown[]) => {
        const out = await value.apply(target, args);
        after(...args);
        return out;
      };
    },
  });
}
