/**
 * JSON with object keys sorted at every level, so equal values give equal text whatever
 * order their keys were written in (for repeated-call keys and state digests).
 */
export function stableStringify(value: unknown): string {
  // A Date (of a `Date` argument) is written as JSON writes it, its ISO text, not as `{}`.
  if (value === null || typeof value !== "object" || value instanceof Date) return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(",")}]`;
  const record = value as Record<string, unknown>;
  const parts: string[] = [];
  for (const key of Object.keys(record).sort()) {
    if (record[key] !== undefined) parts.push(`${JSON.stringify(key)}:${stableStringify(record[key])}`);
  }
  return `{${parts.join(",")}}`;
}
