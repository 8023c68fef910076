import type { ToolContext } from "./context.js";
import { ToolDefinitionError } from "./errors.js";
import { lookupGeneratedSpec } from "./generated-specs.js";
import {
  type CompiledSpec,
  isToolSpec,
  type JsonSchema,
  type ParamSlot,
  type ToolFlags,
  type ToolSpec,
} from "./spec.js";

// biome-ignore lint/suspicious/noExplicitAny: a tool wraps functions of any signature
type AnyFunction = (...args: any[]) => unknown;

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
  /** Runs the tool on arguments that are already validated. */
  execute(args: ToolArgs, ctx: ToolContext<never>): unknown;
}

/**
 * Anything a tool list accepts: a tool (made by `tool()` or any object following the
 * protocol) or a bare typed function, which the compiler turns into a tool at build time.
 */
export type ToolInput = Tool | AnyFunction;

/** A tool made from a typed function: it also knows how its parameters map onto the arguments. */
export interface FunctionTool<F extends AnyFunction = AnyFunction> extends Tool {
  readonly fn: F;
  readonly slots: readonly ParamSlot[];
  readonly spec: ToolSpec;
}

/** Fills the function's positional parameters from the model's arguments object and the context. */
export function bindArguments(slots: readonly ParamSlot[], args: ToolArgs, ctx: ToolContext<never>): unknown[] {
  return slots.map((slot) => (slot.kind === "arg" ? args[slot.name] : slot.kind === "object" ? args : ctx));
}

function missingSpecError(fn: AnyFunction, options: ToolOptions<never> | undefined): ToolDefinitionError {
  const toolName = options?.name ?? (fn.name || "<anonymous>");
  const where = new Error().stack?.split("\n")[3]?.trim().replace(/^at /, "") ?? "an unknown place";
  return new ToolDefinitionError(
    `tool "${toolName}" (called ${where}) has no compiled spec: the toolwright transformer did not run on this file. ` +
      `Add { "transform": "@toolwright/compiler/transform" } to compilerOptions.plugins in tsconfig.json and build with tspc ` +
      `(or 'ts-patch install'), use the esbuild/Vite plugin, or run 'toolwright gen' for tsx, SWC and TypeScript 7.`,
    toolName,
  );
}

/**
 * Turns a typed function into a tool. The compiler derives the name, description and
 * JSON Schema from the signature and TSDoc and passes them as the hidden last argument.
 *
 * @example
 * ```ts
 * /** Current temperature in a city. @param city City name, e.g. "Paris". *\/
 * function getTemperature(city: string): number { ... }
 * export const temperature = tool(getTemperature, { readOnly: true });
 * ```
 */
export function tool<F extends AnyFunction, Deps = unknown>(
  fn: F,
  options?: ToolOptions<Deps>,
  spec?: CompiledSpec,
): FunctionTool<F> {
  // Without an inline spec, a `toolwright gen` module may have registered one (tsx, SWC, TS 7).
  const compiled = isToolSpec(spec) ? spec : lookupGeneratedSpec(fn.name, options?.name);
  if (!compiled) throw missingSpecError(fn, options as ToolOptions<never> | undefined);
  const { needsApproval, timeoutMs, retries, maxResultChars, name, description, ...flags } = options ?? {};
  return {
    name: name ?? compiled.name,
    description: description ?? compiled.description,
    parameters: compiled.parameters,
    ...(compiled.outputSchema ? { outputSchema: compiled.outputSchema } : {}),
    flags: { ...compiled.flags, ...flags },
    needsApproval: (needsApproval as Tool["needsApproval"]) ?? compiled.flags.needsApproval,
    timeoutMs,
    retries,
    maxResultChars,
    fn,
    slots: compiled.slots,
    spec: compiled,
    execute(args, ctx) {
      return fn(...bindArguments(compiled.slots, args, ctx));
    },
  };
}
