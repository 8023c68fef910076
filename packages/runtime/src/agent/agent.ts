import { randomUUID } from "node:crypto";
import { AgentConfigError } from "../errors.js";
import { DEFAULT_TIMEOUT_MS, NEVER_ABORTED } from "../invoke/run-tool.js";
import { InMemoryStore } from "../memory/in-memory-store.js";
import { type MemoryOptions, memoryScope, resolveMemory } from "../memory/memory.js";
import type { Message } from "../model/messages.js";
import type { Model, ToolDefinition } from "../model/model.js";
import type { Touched } from "../policy/capabilities.js";
import type { EgressAllowlist } from "../policy/egress-allowlist.js";
import { agentOwner } from "../policy/owner.js";
import { checkToolPolicy, type PolicyOptions, resolvePolicy } from "../policy/run-policy.js";
import type { AgentConfig, RunEnv, ToolExceptionPolicy } from "../runner/env.js";
import { type AgentHooks, hookList } from "../runner/hooks.js";
import { runLoop } from "../runner/loop.js";
import { observeRun, runObservers } from "../runner/observe-run.js";
import type { RunObserver } from "../runner/observer.js";
import type { RepeatedCallPolicy } from "../runner/repeated-calls.js";
import { resolveRetryPolicy, type ToolRetryPolicy } from "../runner/retry.js";
import type { AgentStreamEvent, RunResult } from "../runner/run-result.js";
import { RunState, type StateOwner } from "../runner/run-state.js";
import type { RunSnapshot } from "../runner/snapshot.js";
import { type ChildRun, type SubAgentToolOptions, subAgentTool } from "../runner/sub-agent.js";
import { linkRun } from "../runner/tool-context.js";
import { emptyUsage, type PriceTable, priceOf, requirePrice } from "../runner/usage.js";
import type { Schema } from "../standard/schema.js";
import { ToolRegistry } from "../tools/registry.js";
import type { CompiledSpec } from "../tools/spec.js";
import { tool } from "../tools/tool.js";
import type { ToolDeps } from "../tools/tool-deps.js";
import type { FunctionTool, Tool, ToolInput, ToolOptions } from "../tools/tool-types.js";
import { thrownFrom, validateArguments } from "../validation/arguments.js";

// biome-ignore lint/suspicious/noExplicitAny: a tool wraps functions of any signature
type AnyFunction = (...args: any[]) => unknown;

/**
 * Options of `new Agent()`. Every limit has a default; none can be switched off by accident.
 * The security policy (`approve`, `trifecta`, `egress`) is described in docs/security.md.
 */
export interface AgentOptions<Deps = unknown, Output = string> extends PolicyOptions {
  /** Names the agent in errors and run states; a state resumes only on an agent of the same name. */
  readonly name: string;
  /** A `Model`, or `"provider:model"` (e.g. `"openai:gpt-5-mini"`), resolved with the key from the environment. */
  readonly model: Model | string;
  /** The system prompt. */
  readonly instructions?: string;
  /** Tools, or bare typed functions (the compiler gives them their spec). Names must be unique. */
  readonly tools?: readonly ToolInput[];
  /** Model turns per run before `MaxTurnsExceededError` (default 10). */
  readonly maxTurns?: number;
  /** Spend per run in USD before `BudgetExceededError`; needs a known price for the model (see `prices`). */
  readonly maxCostUsd?: number;
  /** Per-model prices, added to (and winning over) the built-in table. */
  readonly prices?: PriceTable;
  /** A tool's time limit when it sets none (default 60,000 ms). */
  readonly toolTimeoutMs?: number;
  /** Engine retries of retryable `ToolError`s from `readOnly`/`idempotent` tools (default 3 attempts, 500 ms, 1 s). */
  readonly toolRetry?: ToolRetryPolicy;
  /** What the model sees when a tool throws unexpectedly (default `"return_to_model"`). */
  readonly onToolException?: ToolExceptionPolicy;
  /** Calls of one turn running at once (default 8). */
  readonly maxConcurrentTools?: number;
  /** Identical calls in a row before the model is told, or the run fails (default 3, `"tell_model"`). */
  readonly repeatedCalls?: RepeatedCallPolicy;
  /** `beforeTool` / `afterTool` (the tool chain) and `model` middleware (the model chain). */
  readonly hooks?: AgentHooks<Deps>;
  /** How deep sub-agents may nest under this agent (default 3). */
  readonly maxDepth?: number;
  /** Signs run states with HMAC-SHA256; a state is then only resumed with the same secret. */
  readonly stateSecret?: string;
  /** Where `ctx.memory` and the memory tools keep what they remember, and whose it is (see `MemoryOptions`). */
  readonly memory?: MemoryOptions;
  /** Follow every run from outside the loop, e.g. `openTelemetry()` from `toolwright/telemetry`. */
  readonly observers?: readonly RunObserver[];
  /**
   * The type of the final answer, `schema<T>()`: sent as the provider's structured output (or
   * a final-answer tool), checked when it comes back, and given as `result.output: T`.
   * Without it, the answer is the model's text.
   */
  readonly output?: Schema<Output>;
  /** How many answers that do not fit `output` get feedback and another try (default 2), before `InvalidAnswerError`. */
  readonly outputRetries?: number;
}

/** Options of one run. */
export interface RunOptions<Deps = unknown, Output = never> {
  /** Given to every tool as `ctx.deps`. */
  readonly deps?: Deps;
  /** Aborts the run: model requests and tool calls in flight are aborted, and the run ends with `RunAbortedError`. */
  readonly signal?: AbortSignal;
  /** Overrides the agent's `maxTurns` for this run. */
  readonly maxTurns?: number;
  /** The user this run serves: scopes memory under `memory: { scope: "user" }`. */
  readonly userId?: string;
  /** The conversation this run belongs to: scopes memory under the default `"session"` scope (default: the run's id). */
  readonly sessionId?: string;
  /** This run's answer type, `schema<T>()`, in place of the agent's `output`. */
  readonly output?: Schema<Output>;
}

/**
 * The options argument of `run` and `stream`: optional while nothing asks for deps, and
 * with `deps` required once the agent's type or a tool's `ToolContext<D>` does.
 */
type RunArgs<Deps, Output> = unknown extends Deps
  ? [options?: RunOptions<Deps, Output>]
  : [options: RunOptions<Deps, Output> & { readonly deps: Deps }];

/** Where a run starts: a user message, a transcript to continue, or a paused run's state. */
export type RunInput = string | readonly Message[] | RunState;

/** The URL check of an egress allowlist, its code loaded only for an agent that has one. */
async function egressCheckOf(allowlist: EgressAllowlist | undefined): Promise<RunEnv["egressCheck"]> {
  if (!allowlist) return undefined;
  const { checkUrl } = await import("../policy/egress-url.js");
  return (url) => checkUrl(url, allowlist);
}

/**
 * An LLM agent: a model, instructions and tools, driven by the run loop under limits.
 *
 * @example
 * ```ts
 * const agent = new Agent({
 *   name: "support",
 *   model: "openai:gpt-5-mini",
 *   instructions: "Answer order questions. Never guess a status.",
 *   tools: [lookupOrder, cancelOrder],
 *   maxCostUsd: 0.5,
 * });
 * const result = await agent.run("What happened to order A-771?", { deps });
 * console.log(result.output);
 * ```
 *
 * `Tools` is inferred from `tools`: a tool taking `ToolContext<Db>` makes `run` require
 * `{ deps }` with a `Db` (see {@link ToolDeps}); `Deps` types the hooks' context. `Output`
 * is inferred from `output` (`schema<Answer>()` makes `result.output` an `Answer`); without
 * one, the answer is the model's text.
 */
export class Agent<Deps = unknown, Tools extends readonly ToolInput[] = readonly ToolInput[], Output = string>
  implements StateOwner
{
  readonly name: string;
  readonly #options: AgentOptions<Deps, Output>;
  readonly #registry: ToolRegistry;
  #config: AgentConfig | undefined;
  #model: Model | undefined;
  // The default memory lives as long as the agent, so every run of it shares one store.
  readonly #memory = new InMemoryStore();

  constructor(options: AgentOptions<Deps, Output> & { readonly tools?: Tools }) {
    checkOptions(options);
    this.name = options.name;
    this.#options = options;
    this.#registry = new ToolRegistry(options.tools ?? []);
    if (typeof options.model !== "string") this.#model = options.model;
    // Policy, memory and tool mistakes throw here, not at the first run.
    this.#configured();
  }

  /** The agent's tools by name (read-only: add tools with {@link Agent.tool}). */
  get tools(): ReadonlyMap<string, Tool> {
    return this.#configured().tools;
  }

  /** Sorted tool names. */
  get toolNames(): readonly string[] {
    return this.#configured().toolNames;
  }

  /** The HMAC secret run states are signed with, if any. */
  get stateSecret(): string | undefined {
    return this.#options.stateSecret;
  }

  /**
   * Registers a typed function as a tool of this agent; the compiler supplies its spec.
   *
   * @example
   * ```ts
   * agent.tool(getWeather, { readOnly: true });
   * ```
   */
  tool<F extends AnyFunction>(fn: F, options?: ToolOptions<Deps>, spec?: CompiledSpec): FunctionTool<F> {
    const made = tool(fn, options, spec);
    checkToolPolicy(made, this.#configured().policy);
    this.#registry.add(made);
    this.#config = undefined;
    return made;
  }

  /** Validates edited arguments of an approval against the tool's schema; throws its `ToolArgumentError`. */
  validateArgs(toolName: string, args: unknown): Readonly<Record<string, unknown>> {
    const found = this.#configured().tools.get(toolName);
    if (!found) throw new AgentConfigError(`agent "${this.name}" has no tool "${toolName}".`);
    const check = validateArguments(found, args);
    if (!check.ok) throw thrownFrom(check.error, this.validateArgs);
    return check.args;
  }

  /**
   * Runs the agent until a final answer, a pause for approval (`result.state`), or a
   * limit (a typed `RunError` carrying the partial result).
   *
   * @example
   * ```ts
   * const result = await agent.run("Cancel order A-771", { deps });
   * if (result.state) { result.state.approve(result.interruptions[0].callId); await agent.run(result.state); }
   * ```
   */
  async run<O = Output>(input: RunInput, ...[options = {}]: RunArgs<Deps & ToolDeps<Tools>, O>): Promise<RunResult<O>> {
    return drain(this.#start(input, options, undefined, false)) as Promise<RunResult<O>>;
  }

  /**
   * The same run as {@link Agent.run}, as events: text and tool-call deltas as the model
   * streams them, each tool result, each finished step, then `run-finish` with the result.
   *
   * @example
   * ```ts
   * for await (const event of agent.stream("Weather in Paris?")) {
   *   if (event.type === "text-delta") process.stdout.write(event.delta);
   * }
   * ```
   */
  stream<O = Output>(
    input: RunInput,
    ...[options = {}]: RunArgs<Deps & ToolDeps<Tools>, O>
  ): AsyncGenerator<AgentStreamEvent<O>, RunResult<O>> {
    return this.#start(input, options, undefined, true) as unknown as AsyncGenerator<AgentStreamEvent<O>, RunResult<O>>;
  }

  /**
   * This agent as a tool of another: it runs on a child context (the caller's signal,
   * deps, remaining budget and depth flow down; its usage rolls up into the caller's).
   *
   * @example
   * ```ts
   * const triage = new Agent({ name: "triage", model, tools: [billing.asTool({ name: "billing", description: "Billing questions." })] });
   * ```
   */
  asTool(options: SubAgentToolOptions): Tool {
    const maxDepth = this.#options.maxDepth ?? 3;
    return subAgentTool(this.name, maxDepth, options, (input, child) =>
      drain(this.#start(input, { deps: child.deps as Deps, signal: child.signal }, child, false)),
    );
  }

  /**
   * @internal How `toolwright/store` drives a durable run: the same loop over `input`, with
   * `adapt` given the run before it starts (to give it the stored id and record its tool calls).
   */
  durable(
    input: RunInput,
    options: RunOptions<Deps>,
    adapt: (env: RunEnv) => RunEnv,
  ): AsyncGenerator<AgentStreamEvent, RunResult> {
    return this.#start(input, options, undefined, false, adapt);
  }

  async *#start(
    input: RunInput,
    options: RunOptions<Deps, unknown>,
    child: ChildRun | undefined,
    streaming: boolean,
    adapt?: (env: RunEnv) => RunEnv,
  ): AsyncGenerator<AgentStreamEvent, RunResult> {
    const config = this.#configured();
    if (!this.#model) this.#model = await resolveModel(this.#options.model as string);
    const model = this.#model;
    const own = this.#options.maxCostUsd;
    const budget =
      child?.remainingUsd === undefined ? own : Math.min(own ?? Number.POSITIVE_INFINITY, child.remainingUsd);
    const price =
      budget === undefined
        ? priceOf(model.id, this.#options.prices)
        : requirePrice(model.id, this.#options.prices, this.name);
    const observers = runObservers(this.#options.observers ?? [], child?.caller);
    const output = options.output ?? this.#options.output;
    // Loaded only by runs with a typed answer.
    const answer =
      output &&
      (await import("../runner/final-answer.js")).finalAnswer(output, model, config, this.#options.outputRetries);
    const env = {
      config: answer ? answer.config : config,
      model,
      price,
      deps: options.deps,
      signal: options.signal ?? NEVER_ABORTED,
      hasSignal: options.signal !== undefined,
      snapshot: input instanceof RunState ? resumed(input.take(this)) : fresh(input, child?.touched),
      depth: child?.depth ?? 0,
      maxCostUsd: budget,
      maxTurns: options.maxTurns ?? config.maxTurns,
      streaming,
      events: streaming || observers.length > 0,
      memoryScope: child ? child.memoryScope : memoryScope(this.name, config.memory, options),
      egressCheck: await egressCheckOf(config.policy.egress),
      answer,
    };
    const run = adapt ? adapt(env) : env;
    linkRun(run);
    return yield* observeRun(run, runLoop(run), observers, child?.caller);
  }

  #configured(): AgentConfig {
    if (this.#config) return this.#config;
    const o = this.#options;
    const repeat = o.repeatedCalls ?? {};
    const sorted = this.#registry.tools();
    const tools: ReadonlyMap<string, Tool> = new Map(sorted.map((t) => [t.name, t]));
    const definitions: ToolDefinition[] = this.#registry.definitions();
    this.#config = {
      name: this.name,
      toolNames: this.#registry.names(),
      stateSecret: o.stateSecret,
      validateArgs: (toolName, args) => this.validateArgs(toolName, args),
      instructions: o.instructions,
      tools,
      definitions,
      maxTurns: o.maxTurns ?? 10,
      toolTimeoutMs: o.toolTimeoutMs ?? DEFAULT_TIMEOUT_MS,
      toolRetry: resolveRetryPolicy(o.toolRetry),
      onToolException: o.onToolException ?? "return_to_model",
      maxConcurrentTools: o.maxConcurrentTools ?? 8,
      repeatLimit: repeat.limit ?? 3,
      repeatAction: repeat.action ?? "tell_model",
      beforeTool: hookList(o.hooks?.beforeTool) as AgentConfig["beforeTool"],
      afterTool: hookList(o.hooks?.afterTool) as AgentConfig["afterTool"],
      modelMiddleware: o.hooks?.model ?? [],
      policy: resolvePolicy(agentOwner(this.name), o, sorted),
      memory: resolveMemory(this.name, o.memory ?? {}, () => this.#memory),
    };
    return this.#config;
  }
}

/** Refuses limits that could never be met, naming the option and the fix. */
function checkOptions(options: AgentOptions<never, unknown>): void {
  const where = `agent "${options.name}"`;
  if (typeof options.name !== "string" || options.name === "") {
    throw new AgentConfigError(
      'an Agent needs a name (new Agent({ name: "support", ... })): run states and errors use it.',
    );
  }
  const counts = {
    maxTurns: options.maxTurns,
    maxConcurrentTools: options.maxConcurrentTools,
    maxDepth: options.maxDepth,
  };
  for (const [key, value] of Object.entries(counts)) {
    if (value !== undefined && !(Number.isInteger(value) && value >= 1)) {
      throw new AgentConfigError(`${where}: ${key} must be a whole number of at least 1, got ${value}.`);
    }
  }
  for (const key of ["maxCostUsd", "toolTimeoutMs"] as const) {
    const value = options[key];
    if (value !== undefined && !(value > 0))
      throw new AgentConfigError(`${where}: ${key} must be above 0, got ${value}.`);
  }
}

async function drain(events: AsyncGenerator<AgentStreamEvent, RunResult>): Promise<RunResult> {
  for (;;) {
    const next = await events.next();
    if (next.done) return next.value;
  }
}

/** A new run; a sub-run records what it touches in its parent's record. */
function fresh(input: string | readonly Message[], touched: Touched = {}): RunSnapshot {
  const messages: Message[] = typeof input === "string" ? [{ role: "user", content: input }] : [...input];
  return {
    runId: `run_${randomUUID()}`,
    step: 0,
    messages,
    usage: emptyUsage(),
    steps: [],
    pending: undefined,
    retriesUsed: {},
    repeat: { key: "", count: 0 },
    touched,
  };
}

/** A resumed run works on copies, so the paused result it came from stays as it was. */
function resumed(snapshot: RunSnapshot): RunSnapshot {
  return {
    ...snapshot,
    messages: [...snapshot.messages],
    usage: { ...snapshot.usage },
    steps: [...snapshot.steps],
    pending: snapshot.pending?.map((p) => ({ ...p })),
    retriesUsed: { ...snapshot.retriesUsed },
    repeat: { ...snapshot.repeat },
    // States saved before the trifecta policy carry no record.
    touched: { ...(snapshot.touched ?? {}) },
  };
}

/** Resolves `"provider:model"` with the providers module, loaded only when a string is given. */
async function resolveModel(id: string): Promise<Model> {
  // Imported lazily: agents given a Model object never load the HTTP providers.
  const { resolveModel: resolve } = await import("../providers/resolve.js");
  return resolve(id);
}
