import type { ToolContext, ToolContextInit } from "../invoke/context.js";
import type { MediaPart } from "../model/messages.js";
import type { Capability } from "../policy/capabilities.js";
import type { JsonSchema, ParamSlot, ToolFlags, ToolSpec } from "./spec.js";

// The shapes every part of the runtime shares: defining tools (tool.ts, define-tool.ts),
// running them (invoke/) and checking their arguments (validation/) all import these,
// and none of those modules imports another through them.

/** Any function: what `tool()` and tool lists accept before the compiler types it. */
// biome-ignore lint/suspicious/noExplicitAny: a tool wraps functions of any signature
export type AnyFunction = (...args: any[]) => unknown;

/** The model's arguments as a tool's predicates see them: validated and deep-frozen. */
// biome-ignore lint/suspicious/noExplicitAny: property types come from the compiled schema, not from TS
export type ToolArgs = Readonly<Record<string, any>>;

/** Decides per call whether a person must approve it. */
export type ApprovalPredicate<Deps = unknown> = (ctx: ToolContext<Deps>, args: ToolArgs) => boolean | Promise<boolean>;

/** Options of `tool(fn, options)`; each one wins over what TSDoc says. */
export interface ToolOptions<Deps = unknown> extends Omit<ToolFlags, "needsApproval"> {
  /** The name the model sees; defaults to the function's name. */
  readonly name?: string;
  /** What the model reads to decide when to call it; defaults to the TSDoc summary. */
  readonly description?: string;
  readonly needsApproval?: boolean | ApprovalPredicate<Deps>;
  /** Per-call time limit in milliseconds (default 60,000). */
  readonly timeoutMs?: number;
  /** How many `Retry(hint)` round trips the model gets for this tool (default 2). */
  readonly retries?: number;
  /** Results longer than this many characters are cut, saying so (default 100,000). */
  readonly maxResultChars?: number;
  /** What the tool touches, for the agent's trifecta policy (TSDoc: `@capability private_data egress`). */
  readonly capabilities?: readonly Capability[];
  /** The argument holding the URL each call reaches, checked against the agent's egress allowlist (TSDoc: `@egress url`). */
  readonly egress?: string;
}

/**
 * A tool as the model and the loop see it. Any object with these members is a tool
 * (the protocol); `tool()` builds one from a typed function.
 */
export interface Tool {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments object. */
  readonly parameters: JsonSchema;
  /** JSON Schema of the result, when the return type can be checked. */
  readonly outputSchema?: JsonSchema;
  readonly flags: ToolFlags;
  readonly needsApproval?: boolean | ApprovalPredicate<never>;
  readonly timeoutMs?: number;
  readonly retries?: number;
  readonly maxResultChars?: number;
  /** What the tool touches: private data, untrusted content, egress (see the agent's `trifecta` policy). */
  readonly capabilities?: readonly Capability[];
  /** The name of the argument holding the URL each call reaches; the agent checks it against its egress allowlist. */
  readonly egress?: string;
  /** Runs the tool on arguments that are already validated. */
  execute(args: ToolArgs, ctx: ToolContext<never>): unknown;
}

/** A tool that can be called on its own, exactly as the loop calls it (minus approvals and retries). */
export interface InvokableTool extends Tool {
  /**
   * Validates (and safely repairs) `args`, injects the context, applies the time limit and
   * serializes the result. Throws the typed error of a failed call.
   */
  invoke(args: unknown, ctx?: ToolContextInit): Promise<ToolRunResult>;
}

/**
 * Anything a tool list accepts: a tool (made by `tool()` or any object following the
 * protocol) or a bare typed function, which the compiler turns into a tool at build time.
 */
export type ToolInput = Tool | AnyFunction;

/** A tool made from a typed function: it also knows how its parameters map onto the arguments. */
export interface FunctionTool<F extends AnyFunction = AnyFunction> extends InvokableTool {
  readonly fn: F;
  readonly slots: readonly ParamSlot[];
  readonly spec: ToolSpec;
}

/** What a finished call returns: the function's value and the text the model reads. */
export interface ToolRunResult {
  readonly value: unknown;
  /** The serialized value, capped with a visible marker (for images and sounds, their labels). */
  readonly content: string;
  readonly truncated: boolean;
  /** The images and sounds the tool returned, when it returned any (see `MediaPart`). */
  readonly media?: readonly MediaPart[];
}
