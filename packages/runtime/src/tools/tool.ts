import { decorateToolMethod, type ToolMethodDecorator, toolDecorator } from "./decorators.js";
import { defineTool, type ToolDescriptor } from "./define-tool.js";
import { functionTool } from "./function-tool.js";
import { lookupGeneratedSpec } from "./generated-specs.js";
import { missingSpecError } from "./missing-spec.js";
import { type CompiledSpec, isToolSpec, type JsonSchema } from "./spec.js";
import type { StandardSchema } from "./standard-schema.js";
import type { AnyFunction, FunctionTool, InvokableTool, ToolOptions } from "./tool-types.js";

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
