import { lookupGeneratedSpec } from "./generated-specs.js";
import { missingSpecError } from "./missing-spec.js";
import { isToolSpec, type ToolSpec } from "./spec.js";
import type { ToolOptions } from "./tool-types.js";

// biome-ignore lint/suspicious/noExplicitAny: a decorated method may have any signature
type AnyMethod = (...args: any[]) => unknown;

/** What `@tool(options, spec)` recorded for one method. */
export interface MethodToolRecord {
  readonly options: ToolOptions<never> | undefined;
  readonly spec: ToolSpec;
}

/** A decorator usable both as a TC39 method decorator and as a legacy (`experimentalDecorators`) one. */
export interface ToolMethodDecorator {
  <F extends AnyMethod>(method: F, context: ClassMethodDecoratorContext<unknown, F>): void;
  (target: object, key: string | symbol, descriptor: PropertyDescriptor): void;
}

// Keyed by the method function itself: the same for both decorator flavours, and no
// metadata is written onto user classes.
const records = new WeakMap<AnyMethod, MethodToolRecord>();

/** The record `@tool` left on a method, if any. */
export function toolRecordOf(method: unknown): MethodToolRecord | undefined {
  return typeof method === "function" ? records.get(method as AnyMethod) : undefined;
}

/**
 * Records a decorated method (TC39: `method, context`; legacy: `target, key, descriptor`)
 * with its spec: the compiled one, else one a `toolwright gen` module registered under the
 * method's name; with neither, throws the missing-spec error (saying so when `spec` is the
 * compiler's marker for a site the build rejected).
 */
export function decorateToolMethod(
  options: ToolOptions<never> | undefined,
  spec: unknown,
  methodOrTarget: unknown,
  contextOrKey: unknown,
  descriptor?: PropertyDescriptor,
): void {
  const legacy = typeof contextOrKey === "string" || typeof contextOrKey === "symbol";
  const method = legacy ? descriptor?.value : methodOrTarget;
  const name = legacy
    ? String(contextOrKey)
    : String((contextOrKey as { name?: unknown } | undefined)?.name ?? "<method>");
  const compiled = isToolSpec(spec) ? spec : lookupGeneratedSpec(name, options?.name);
  if (!compiled) throw missingSpecError(options?.name ?? name, spec);
  if (typeof method !== "function") throw missingSpecError(options?.name ?? name);
  records.set(method as AnyMethod, { options, spec: compiled });
}

/** The decorator `tool(options, spec)` returns (see {@link decorateToolMethod}). */
export function toolDecorator(options: ToolOptions<never> | undefined, spec: unknown): ToolMethodDecorator {
  return (methodOrTarget: unknown, contextOrKey: unknown, descriptor?: PropertyDescriptor): void =>
    decorateToolMethod(options, spec, methodOrTarget, contextOrKey, descriptor);
}
