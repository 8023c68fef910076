/**
 * Arguments objects the runtime parsed itself from a provider's JSON (Anthropic's `input`,
 * Gemini's `args`). Nobody outside holds them before validation, so where no generated
 * reader copies them (validation/arguments.ts), validation checks and freezes them in place
 * instead of copying them first, as it does for JSON text; a caller's own object is always
 * copied, never frozen.
 */
const parsed = new WeakSet<object>();

/** Marks `value` as arguments the runtime itself parsed from JSON; returns it. */
export function parsedArguments<T extends object>(value: T): T {
  parsed.add(value);
  return value;
}

/** Whether `value` was marked by {@link parsedArguments}: the runtime's own, safe to freeze in place. */
export function isParsedArguments(value: unknown): boolean {
  return typeof value === "object" && value !== null && parsed.has(value);
}
