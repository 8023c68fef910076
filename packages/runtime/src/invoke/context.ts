import type { Memory } from "../memory/memory.js";
import type { ToolFetch } from "../policy/guarded-fetch.js";

declare const toolContextBrand: unique symbol;

/** Running token and cost tally of a run, shared by every call in it. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  /** Input tokens served from the provider's prompt cache (a subset of `inputTokens`). */
  cachedInputTokens: number;
  /** Model requests made so far. */
  requests: number;
  /** Cost so far in US dollars, from usage times the model's prices, when prices are known. */
  costUsd: number;
}

/** Structured log sink for tool code; lines are kept in the run's record. */
export interface ToolLogger {
  debug(message: string, data?: unknown): void;
  info(message: string, data?: unknown): void;
  warn(message: string, data?: unknown): void;
  error(message: string, data?: unknown): void;
}

/**
 * Reports how far a long call has come: `done` out of `total` (when the total is known),
 * with an optional line for people. Values should grow with each report.
 */
export type ToolProgress = (done: number, total?: number, message?: string) => void;

/**
 * What a tool receives besides the model's arguments. Declare a parameter of this type
 * (any name, any position) and the compiler leaves it out of the schema; the runtime
 * injects it at call time.
 *
 * @example
 * ```ts
 * function lookupOrder(id: string, ctx: ToolContext<{ db: Db }>) {
 *   return ctx.deps.db.orders.get(id, { signal: ctx.signal });
 * }
 * ```
 */
export interface ToolContext<Deps = unknown> {
  /** What `agent.run(input, { deps })` was given. */
  readonly deps: Deps;
  readonly runId: string;
  /** Stable across retries and resumes: use it as the idempotency key. */
  readonly callId: string;
  readonly toolName: string;
  /** The model turn this call belongs to, from 1. */
  readonly step: number;
  /** 1 on the first attempt, then 2, 3 ... when the engine retries. */
  readonly attempt: number;
  /** Aborted on timeout or when the run is cancelled. */
  readonly signal: AbortSignal;
  readonly usage: Readonly<Usage>;
  readonly log: ToolLogger;
  /**
   * Reports progress of a long call, e.g. `ctx.progress(3, 10, "3 of 10 files")`. In an
   * agent run it is a `tool-progress` event of `agent.stream()`; served over MCP it is a
   * `notifications/progress` to a client that sent a `progressToken`; elsewhere it does nothing.
   */
  readonly progress: ToolProgress;
  /**
   * In a durable run (`toolwright/store`): a key stable across retries, resumes and
   * workers, unique per call; hand it to external APIs that deduplicate (payments, email).
   */
  readonly idempotencyKey?: string;
  /** In a durable run with a `sessionId`: the conversation this run continues. */
  readonly sessionId?: string;
  /**
   * `fetch` held to the egress allowlist of the agent or MCP server the call runs in: the URL
   * and every redirect target are checked, and a refused one throws a `ToolError` saying
   * why (every request, when there is no allowlist). Aborted with `signal`.
   */
  readonly fetch: ToolFetch;
  /** What the agent remembers for this run's user or session (see `memory` in the agent's options). */
  readonly memory: Memory;
  /** Brand the compiler recognises; never present at run time. */
  readonly [toolContextBrand]?: never;
}

/** What a caller may supply of a {@link ToolContext}; the rest gets defaults. */
export type ToolContextInit = Partial<Omit<ToolContext, "signal">> & { signal?: AbortSignal };
