/** Results longer than this many characters are cut unless a tool or call says otherwise. */
export const DEFAULT_MAX_RESULT_CHARS = 100_000;

/** Map keys that read naturally as JSON object keys. */
function plainKeys(map: Map<unknown, unknown>): boolean {
  for (const key of map.keys()) if (typeof key !== "string" && typeof key !== "number") return false;
  return true;
}

/**
 * A JSON replacer for what tools return in practice: cycles become `"[Circular]"`, BigInts
 * strings, Maps objects (or entry lists when keys are not strings), Sets arrays, Errors
 * `{ name, message }`. Dates and other `toJSON` values are handled by JSON itself.
 */
function replacer(): (this: unknown, key: string, value: unknown) => unknown {
  // The path from the root to the value being written: `holders` are what JSON walks (a Map's
  // replacement object), `originals` what the tool returned; a cycle is a repeated original.
  const holders: unknown[] = [];
  const originals: unknown[] = [];
  return function (this: unknown, _key: string, value: unknown) {
    if (typeof value === "bigint") return value.toString();
    if (typeof value !== "object" || value === null) return value;
    while (holders.length > 0 && holders[holders.length - 1] !== this) {
      holders.pop();
      originals.pop();
    }
    if (originals.includes(value)) return "[Circular]";
    let written: unknown = value;
    if (value instanceof Map) written = plainKeys(value) ? Object.fromEntries(value) : [...value.entries()];
    else if (value instanceof Set) written = [...value];
    else if (value instanceof Error) written = { name: value.name, message: value.message };
    holders.push(written);
    originals.push(value);
    return written;
  };
}

/**
 * What the model reads for a tool's return value: strings as they are, `undefined` as
 * `""`, anything else as JSON. Never throws: a value JSON cannot hold at all (a throwing
 * `toJSON`, nesting past the stack) is described instead.
 */
export function serializeResult(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "";
  try {
    return JSON.stringify(value, replacer()) ?? "";
  } catch (error) {
    return `[unserializable result: ${error instanceof Error ? error.message : String(error)}]`;
  }
}

/** Cuts `content` to `maxChars`, followed by a marker saying how much was cut. */
export function capResult(content: string, maxChars: number): { content: string; truncated: boolean } {
  if (content.length <= maxChars) return { content, truncated: false };
  const cut = content.length - maxChars;
  return {
    content: `${content.slice(0, maxChars)}\n[toolwright: result truncated, ${cut} of ${content.length} characters cut]`,
    truncated: true,
  };
}
