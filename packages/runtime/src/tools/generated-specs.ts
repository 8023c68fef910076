import type { ToolSpec } from "./spec.js";

/**
 * One spec written by `toolwright gen`, keyed by what `tool(fn, options)` can see at
 * run time: the function's `name` and the `name` option (when the call gives one).
 */
export interface GeneratedSpecEntry {
  /** `fn.name` of the wrapped function as JavaScript reports it (`""` for an anonymous one). */
  readonly fn: string;
  /** The literal `name` option of the `tool()` call, when it has one. */
  readonly name?: string;
  readonly spec: ToolSpec;
}

// On globalThis so that two copies of the runtime (a bundled and an installed one)
// still share the specs the generated module registered.
const registryKey = Symbol.for("toolwright.generatedSpecs");
type Registry = Map<string, ToolSpec>;

function registry(): Registry {
  const holder = globalThis as { [registryKey]?: Registry };
  holder[registryKey] ??= new Map();
  return holder[registryKey];
}

function keyOf(fn: string, name: string | undefined): string {
  return `${fn}\u0000${name ?? ""}`;
}

/**
 * Registers the specs of a generated module (`toolwright.gen.ts`). Projects whose
 * compiler cannot run the transformer (TypeScript 7, SWC, tsx) import that module once,
 * before any module that defines tools; `tool(fn)` then finds its spec here.
 *
 * @example
 * ```ts
 * // src/main.ts: first import of the entry point
 * import "./toolwright.gen.js";
 * import { agent } from "./agent.js";
 * ```
 */
export function registerSpecs(entries: readonly GeneratedSpecEntry[]): void {
  const specs = registry();
  for (const entry of entries) specs.set(keyOf(entry.fn, entry.name), entry.spec);
}

/** The generated spec for `tool(fn, { name })`, if a generated module registered one. */
export function lookupGeneratedSpec(fnName: string, name: string | undefined): ToolSpec | undefined {
  return registry().get(keyOf(fnName, name));
}
