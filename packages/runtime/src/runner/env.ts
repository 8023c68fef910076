import type { ResolvedMemory } from "../memory/memory.js";
import type { Model, ModelRequest, ModelResponse, ModelStreamEvent, ToolDefinition } from "../model/model.js";
import type { EgressCheck } from "../policy/egress-argument.js";
import type { ResolvedPolicy } from "../policy/run-policy.js";
import type { Tool } from "../tools/tool-types.js";
import type { AfterToolHook, BeforeToolHook, ModelMiddleware } from "./hooks.js";
import type { ResolvedRetryPolicy } from "./retry.js";
import type { RunResult } from "./run-result.js";
import type { StateOwner } from "./run-state.js";
import type { RunSnapshot } from "./snapshot.js";
import type { ModelPrice } from "./usage.js";

/** What the loop does with an unexpected exception from a tool. */
export type ToolExceptionPolicy = "return_to_model" | "return_generic" | "fail";

/** An agent's options with every default filled in: what the loop reads. */
export interface AgentConfig extends StateOwner {
  readonly instructions: string | undefined;
  readonly tools: ReadonlyMap<string, Tool>;
  /** Sorted by name. */
  readonly definitions: readonly ToolDefinition[];
  readonly maxTurns: number;
  readonly toolTimeoutMs: number;
  readonly toolRetry: ResolvedRetryPolicy;
  readonly onToolException: ToolExceptionPolicy;
  readonly maxConcurrentTools: number;
  readonly repeatLimit: number;
  readonly repeatAction: "tell_model" | "fail";
  readonly beforeTool: readonly BeforeToolHook<never>[];
  readonly afterTool: readonly AfterToolHook<never>[];
  readonly modelMiddleware: readonly ModelMiddleware[];
  /** Autonomy tier, trifecta action and egress allowlist. */
  readonly policy: ResolvedPolicy;
  readonly memory: ResolvedMemory;
}

/** A final answer the run took: its value, typed by the run's `output` schema. */
export interface TakenAnswer {
  readonly value: unknown;
}

/**
 * How a run with an `output` schema gets its typed final answer (runner/final-answer.ts,
 * loaded only by such runs): what every request carries, and the checks of each turn.
 */
export interface AnswerHandler {
  /** What every request of the run carries: the output format (`native`), or the forced tool choice (`tool`). */
  readonly request: Pick<ModelRequest, "output" | "toolChoice">;
  /** The agent's configuration, with the final-answer tool among its tools in `tool` mode. */
  readonly config: AgentConfig;
  /**
   * A turn that called no tool: its text read as the answer, or `undefined` once the feedback
   * for another try is in the transcript. Throws `InvalidAnswerError` (carrying `partial()`)
   * when the tries are spent.
   */
  fromText(env: RunEnv, response: ModelResponse, partial: () => RunResult): TakenAnswer | undefined;
  /** After a turn's calls settled: the answer the final-answer tool took, if it took one (throws as `fromText`). */
  fromTools(env: RunEnv, partial: () => RunResult): TakenAnswer | undefined;
  /** A reader of one turn's stream events: each new partial answer, else `undefined`. */
  watch(): (event: ModelStreamEvent) => unknown;
}

/** One run in progress. */
export interface RunEnv {
  readonly config: AgentConfig;
  readonly model: Model;
  /** The model's price, when known (required when there is a budget). */
  readonly price: ModelPrice | undefined;
  readonly deps: unknown;
  /** The caller's signal (or one that never aborts). */
  readonly signal: AbortSignal;
  /** Whether the caller gave a signal; without one, no signal is combined or forwarded. */
  readonly hasSignal: boolean;
  readonly snapshot: RunSnapshot;
  /** 0 for a top-level run; a sub-agent runs one deeper than its caller. */
  readonly depth: number;
  /** The budget in force: the agent's, or what is left of a parent run's, whichever is smaller. */
  readonly maxCostUsd: number | undefined;
  readonly maxTurns: number;
  readonly streaming: boolean;
  /** Whether anyone reads the loop's events (a stream or an observer); `run()` alone reads none, so none are made. */
  readonly events: boolean;
  /**
   * The agent's egress allowlist as a check of one URL argument, loaded when the run starts
   * (agents without an allowlist never load the URL checks); undefined without an allowlist.
   */
  readonly egressCheck: EgressCheck | undefined;
  /** Whose memory `ctx.memory` reads: `user:<id>` or `session:<id>`; undefined for the run's own session. */
  readonly memoryScope: string | undefined;
  /** Present when the run wants a typed final answer (the agent's or the run's `output`). */
  readonly answer?: AnswerHandler | undefined;
}
