/**
 * JSON with object keys sorted at every level, so equal values give equal text whatever
 * order their keys were written in (for repeated-call keys and state digests).
 */
export function stableStringify(value: unknown): string {
  // A Date (of a `Date` argument) is written as JSON writes it, its ISO text, not as `{}`.
  if (value === null || typeof value !== "object" || value instanceof Date) return JSON.stringify(value) ?? "null";
  // Built by concatenation, with no arrays of parts: this runs on every tool call's arguments.
  if (Array.isArray(value)) {
    let text = "[";
    for (let i = 0; i < value.length; i++) text += (i === 0 ? "" : ",") + stableStringify(value[i]);
    return `${text}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = sortedKeys(record);
  let text = "{";
  for (const key of keys) {
    const item = record[key];
    if (item === undefined) continue;
    text += `${text.length === 1 ? "" : ","}${JSON.stringify(key)}:${stableStringify(item)}`;
  }
  return `${text}}`;
}

/** Own keys in code-unit order, as `sort()` orders them; a few keys (the usual arguments) by insertion. */
function sortedKeys(record: Record<string, unknown>): string[] {
  const keys = Object.keys(record);
  if (keys.length > 8) return keys.sort();
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i] as string;
    let j = i - 1;
    for (; j >= 0 && (keys[j] as string) > key; j--) keys[j + 1] = keys[j] as string;
    keys[j + 1] = key;
  }
  return keys;
}
