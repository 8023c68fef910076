import type { ToolContext } from "./context.js";
import { decorateToolMethod, type ToolMethodDecorator, toolDecorator } from "./decorators.js";
import { defineTool, type ToolDescriptor } from "./define-tool.js";
import { lookupGeneratedSpec } from "./generated-specs.js";
import { missingSpecError } from "./missing-spec.js";
import type { Capability } from "./policy/capabilities.js";
import { runTool, type ToolContextInit, type ToolRunResult } from "./run-tool.js";
import {
  type CompiledSpec,
  isToolSpec,
  type JsonSchema,
  type ParamSlot,
  type ToolFlags,
  type ToolSpec,
} from "./spec.js";
import type { StandardSchema } from "./standard-schema.js";
import { checkToolName } from "./tool-name.js";
import { validateArguments } from "./validation/arguments.js";

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

/** Fills the function's positional parameters from the model's arguments object and the context. */
export function bindArguments(slots: readonly ParamSlot[], args: ToolArgs, ctx: ToolContext<never>): unknown[] {
  // Own keys only: an absent optional parameter named `toString` must arrive as undefined.
  return slots.map((slot) =>
    slot.kind === "arg"
      ? Object.hasOwn(args, slot.name)
        ? args[slot.name]
        : undefined
      : slot.kind === "object"
        ? args
        : ctx,
  );
}

/** Adds `invoke` to a tool: the same two steps the loop takes. */
export function withInvoke<T extends Tool>(base: T): T & InvokableTool {
  const made: T & InvokableTool = Object.assign(base, {
    async invoke(args: unknown, ctx?: ToolContextInit): Promise<ToolRunResult> {
      const check = validateArguments(made, args);
      if (!check.ok) throw check.error;
      return runTool(made, check.args, ctx);
    },
  });
  return made;
}

/** Builds the tool of a compiled function; options win over the spec. */
export function functionTool<F extends AnyFunction>(
  fn: F,
  options: ToolOptions<never> | undefined,
  spec: ToolSpec,
): FunctionTool<F> {
  const { needsApproval, timeoutMs, retries, maxResultChars, name, description, capabilities, egress, ...flags } =
    options ?? {};
  const toolName = checkToolName(name ?? spec.name, spec.source);
  return withInvoke<Omit<FunctionTool<F>, "invoke">>({
    name: toolName,
    description: description ?? spec.description,
    parameters: spec.parameters,
    ...(spec.outputSchema ? { outputSchema: spec.outputSchema } : {}),
    flags: { ...spec.flags, ...flags },
    needsApproval: (needsApproval as Tool["needsApproval"]) ?? spec.flags.needsApproval,
    timeoutMs,
    retries,
    maxResultChars,
    ...policyOf(capabilities ?? spec.capabilities, egress ?? spec.egress),
    fn,
    slots: spec.slots,
    spec,
    execute(args: ToolArgs, ctx: ToolContext<never>) {
      return fn(...bindArguments(spec.slots, args, ctx));
    },
  });
}

/** The policy members of a tool, left out when not given so tools without them keep their shape. */
export function policyOf(
  capabilities: readonly Capability[] | undefined,
  egress: string | undefined,
): Pick<Tool, "capabilities" | "egress"> {
  return { ...(capabilities ? { capabilities } : {}), ...(egress === undefined ? {} : { egress }) };
}

function isDecoratorContext(value: unknown): value is ClassMethodDecoratorContext {
  return (
    typeof value === "object" &&
    value !== null &&
    "kind" in value &&
    typeof (value as { addInitializer?: unknown }).addInitializer === "function"
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
 * await temperature.invoke({ city: "Paris" });
 * ```
 */
export function tool<F extends AnyFunction, Deps = unknown>(
  fn: F,
  options?: ToolOptions<Deps>,
  spec?: CompiledSpec,
): FunctionTool<F>;
/**
 * The hand-written escape hatch: a tool from a name, a description, a JSON Schema or a
 * Standard Schema (zod 4, ...) and an `execute` function. Nothing is compiled.
 *
 * @example
 * ```ts
 * const add = tool({
 *   name: "add", description: "Add two numbers.",
 *   parameters: z.object({ a: z.number(), b: z.number() }),
 *   execute: ({ a, b }) => a + b,
 * });
 * ```
 */
export function tool<S extends JsonSchema | StandardSchema, Deps = unknown>(
  definition: ToolDescriptor<S, Deps>,
): InvokableTool;
/**
 * A method decorator: `@tool` or `@tool({ ...options })` on a class method, collected with
 * `toolsOf(instance)`. The compiler adds the spec argument; works with TC39 decorators and
 * with `experimentalDecorators`.
 *
 * @example
 * ```ts
 * class Orders {
 *   /** Look up an order by id. *\/
 *   @tool({ readOnly: true }) lookup(id: string) { return this.db.get(id); }
 * }
 * const tools = toolsOf(new Orders(db));
 * ```
 */
export function tool<Deps = unknown>(options?: ToolOptions<Deps>, spec?: CompiledSpec): ToolMethodDecorator;
/** A bare `@tool` on a method the compiler did not see: uses the spec a `toolwright gen` module registered, else throws the missing-spec error. */
export function tool<F extends AnyFunction>(method: F, context: ClassMethodDecoratorContext<unknown, F>): void;
/** A bare legacy (`experimentalDecorators`) `@tool` the compiler did not see: as the TC39 one. */
export function tool(target: object, key: string | symbol, descriptor: PropertyDescriptor): void;
export function tool(first?: unknown, second?: unknown, third?: unknown): unknown {
  // A bare `@tool` applied as a decorator (TC39 context, or a legacy property key): the
  // compiler did not rewrite it, so its spec can only come from a `toolwright gen` module.
  if (isDecoratorContext(second) || typeof second === "string" || typeof second === "symbol") {
    return decorateToolMethod(undefined, undefined, first, second, third as PropertyDescriptor | undefined);
  }
  if (typeof first === "function") {
    if (isToolSpec(third)) return functionTool(first as AnyFunction, second as ToolOptions<never>, third);
    // No inline spec: a `toolwright gen` module may have registered one (tsx, SWC, TypeScript 7).
    const options = second as ToolOptions | undefined;
    const generated = lookupGeneratedSpec(first.name, options?.name);
    if (generated) return functionTool(first as AnyFunction, second as ToolOptions<never>, generated);
    throw missingSpecError(options?.name ?? (first.name || "<anonymous>"), third);
  }
  if (
    second === undefined &&
    typeof first === "object" &&
    first !== null &&
    typeof (first as { execute?: unknown }).execute === "function"
  ) {
    return defineTool(first as ToolDescriptor<JsonSchema, unknown>);
  }
  return toolDecorator(first as ToolOptions<never> | undefined, second);
}
