import type { ToolSpec } from "toolwright";

/**
 * True when two specs describe the same tool to a model: equal in everything but where
 * they were derived (`source`). One function placed in two tool lists gives two such
 * specs, which is one tool, not a clash of names.
 */
export function sameTool(a: ToolSpec, b: ToolSpec): boolean {
  return JSON.stringify({ ...a, source: null }) === JSON.stringify({ ...b, source: null });
}
