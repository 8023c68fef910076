import type { ToolContext } from "../invoke/context.js";
import type { OutcomeKind } from "../model/messages.js";
import type { ModelRequest, ModelStreamEvent } from "../model/model.js";
import type { Tool, ToolArgs } from "../tools/tool-types.js";

/** A call about to run: the tool, its validated and frozen arguments, and its context. */
export interface ToolHookCall<Deps = unknown> {
  readonly tool: Tool;
  readonly args: ToolArgs;
  readonly ctx: ToolContext<Deps>;
}

/**
 * What a `beforeTool` hook decides; `undefined` lets the call run as it is.
 * - `block`: the call does not run; the model reads `message` as a `rejected` result;
 * - `replace_args`: the call runs with these arguments, validated again first;
 * - `answer`: the call does not run; `value` is the result (e.g. from a cache).
 */
export type BeforeToolDecision =
  | { readonly action: "block"; readonly message: string }
  | { readonly action: "replace_args"; readonly args: Readonly<Record<string, unknown>> }
  | { readonly action: "answer"; readonly value: unknown };

/** Runs before each call that passed validation and approval. */
export type BeforeToolHook<Deps = unknown> = (
  call: ToolHookCall<Deps>,
) => BeforeToolDecision | undefined | Promise<BeforeToolDecision | undefined>;

/** The result of a call as the model would read it. */
export interface ToolCallResult {
  readonly outcome: OutcomeKind;
  readonly content: string;
}

/** Runs after each call that ran (or was answered by `beforeTool`); return a result to replace it. */
export type AfterToolHook<Deps = unknown> = (
  call: ToolHookCall<Deps> & { readonly result: ToolCallResult },
) => ToolCallResult | undefined | Promise<ToolCallResult | undefined>;

/**
 * Wraps one model turn. Call `next(request)` (possibly with a changed request) and
 * yield its events, changed or not, or yield a whole turn yourself (e.g. a cached
 * `finish` event). The last event must be `finish`.
 */
export type ModelMiddleware = (
  request: ModelRequest,
  next: (request: ModelRequest) => AsyncIterable<ModelStreamEvent>,
) => AsyncIterable<ModelStreamEvent>;

/** Hooks of an agent: a tool chain and a model chain, kept apart. Each runs in the order given. */
export interface AgentHooks<Deps = unknown> {
  readonly beforeTool?: BeforeToolHook<Deps> | readonly BeforeToolHook<Deps>[];
  readonly afterTool?: AfterToolHook<Deps> | readonly AfterToolHook<Deps>[];
  readonly model?: readonly ModelMiddleware[];
}

/** Normalises a hook option to a list. */
export function hookList<H>(hooks: H | readonly H[] | undefined): readonly H[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? (hooks as readonly H[]) : [hooks as H];
}

/** Builds the model chain: the first middleware is the outermost. */
export function chainModel(
  middleware: readonly ModelMiddleware[],
  call: (request: ModelRequest) => AsyncIterable<ModelStreamEvent>,
): (request: ModelRequest) => AsyncIterable<ModelStreamEvent> {
  return middleware.reduceRight<(request: ModelRequest) => AsyncIterable<ModelStreamEvent>>(
    (next, mw) => (request) => mw(request, next),
    call,
  );
}
