/** At most this many characters of a key, string or message a model (or caller) sent are quoted back. */
export const MAX_QUOTED = 40;
const MAX_KEYS = 5;

/** What JSON.stringify escapes in a string (surrogates: only lone ones, but any sends it there). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what JSON escapes
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * `text` as a JSON string, cut after {@link MAX_QUOTED} characters with `…` inside the
 * quotes and its full length after them: `"aaaa…" (a key of 20000 characters)`.
 */
export function quote(text: string, noun: string): string {
  if (text.length <= MAX_QUOTED) return ESCAPED.test(text) ? JSON.stringify(text) : `"${text}"`;
  return `${JSON.stringify(text.slice(0, MAX_QUOTED)).slice(0, -1)}…" (${noun} of ${text.length} characters)`;
}

/**
 * A short rendering of a received value for feedback: enough for a model to see what it
 * sent, never the whole of a several-megabyte string.
 */
export function renderValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (typeof value === "string")
    return value.length <= MAX_QUOTED ? `${quote(value, "")} (a string)` : quote(value, "a string");
  if (typeof value === "number" || typeof value === "boolean") return `${String(value)} (a ${typeof value})`;
  if (Array.isArray(value)) return `an array of ${value.length} item${value.length === 1 ? "" : "s"}`;
  if (typeof value === "object") {
    const keys = Object.keys(value);
    if (keys.length === 0) return "an empty object";
    const shown = keys.slice(0, MAX_KEYS).map((k) => quote(k, "a key"));
    return `an object with key${keys.length === 1 ? "" : "s"} ${shown.join(", ")}${keys.length > MAX_KEYS ? ", …" : ""}`;
  }
  return typeof value;
}

/** A JSON Pointer for feedback: each segment cut after {@link MAX_QUOTED} characters with `…`. */
export function shownPath(path: string): string {
  // No segment of a short path can be long: the usual case, without splitting it.
  if (path.length <= MAX_QUOTED) return path;
  return path
    .split("/")
    .map((segment) => (segment.length <= MAX_QUOTED ? segment : `${segment.slice(0, MAX_QUOTED)}…`))
    .join("/");
}

/** `/a/0/b` → where the value sits, for a line of feedback; the root has no prefix. */
export function at(path: string): string {
  return path === "" ? "" : `${shownPath(path)}: `;
}

/** The value at JSON Pointer `path` in `value`; `undefined` when there is none. */
export function valueAt(value: unknown, path: string): unknown {
  let current = value;
  for (const segment of path.split("/").slice(1)) {
    const key = segment.replaceAll("~1", "/").replaceAll("~0", "~");
    if (typeof current !== "object" || current === null || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** Appends one JSON Pointer segment. */
export function childPath(path: string, key: string | number): string {
  if (typeof key === "number" || !/[~/]/.test(key)) return `${path}/${key}`;
  return `${path}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
}
