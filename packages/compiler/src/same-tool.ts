import type { SchemaSpec, ToolSpec } from "toolwright";

/**
 * True when two specs describe the same tool to a model: equal in everything but where
 * they were derived (`source`). One function placed in two tool lists gives two such
 * specs, which is one tool, not a clash of names. The same holds for two `schema<T>()` specs.
 */
export function sameTool<Spec extends ToolSpec | SchemaSpec>(a: Spec, b: Spec): boolean {
  return JSON.stringify({ ...a, source: null }) === JSON.stringify({ ...b, source: null });
}
