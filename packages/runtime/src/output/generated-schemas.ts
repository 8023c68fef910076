import type { SchemaSpec } from "./spec.js";

/** One schema spec written by `toolwright gen`, keyed by the `name` option its `schema<T>()` call gives. */
export interface GeneratedSchemaEntry {
  /** The literal `name` option of the `schema<T>({ name })` call. */
  readonly name: string;
  readonly spec: SchemaSpec;
}

// On globalThis, as the tools' registry is: two copies of the runtime share what a generated module registered.
const registryKey = Symbol.for("toolwright.generatedSchemas");

function registry(): Map<string, SchemaSpec> {
  const holder = globalThis as { [registryKey]?: Map<string, SchemaSpec> };
  holder[registryKey] ??= new Map();
  return holder[registryKey];
}

/**
 * Registers the schema specs of a generated module (`toolwright.gen.ts`), for projects whose
 * compiler cannot run the transformer (TypeScript 7, SWC, tsx): `schema<T>({ name })` then
 * finds its spec here by its name. Such a call needs the `name` option, since nothing else of
 * it is left at run time.
 *
 * @example
 * ```ts
 * registerSchemas([{ name: "weather_report", spec: { $toolwrightSchema: 1, name: "weather_report", schema, source } }]);
 * ```
 */
export function registerSchemas(entries: readonly GeneratedSchemaEntry[]): void {
  const specs = registry();
  for (const entry of entries) specs.set(entry.name, entry.spec);
}

/** The generated spec of `schema<T>({ name })`, if a generated module registered one. */
export function lookupGeneratedSchema(name: string | undefined): SchemaSpec | undefined {
  return name === undefined ? undefined : registry().get(name);
}
