/** Arguments nested deeper than this are refused: every walk over them stays far from the stack limit. */
export const MAX_DEPTH = 64;

/** Thrown by {@link cloneArguments} on arguments nested deeper than {@link MAX_DEPTH}. */
export class TooDeepError extends Error {
  constructor(readonly path: string) {
    super(`nested deeper than ${MAX_DEPTH} levels at ${path}`);
  }
}

/**
 * Sets `key` as an own data property. Plain assignment of `__proto__` would replace the
 * object's prototype instead; defining it keeps it an ordinary (and rejectable) key.
 */
export function defineKey(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * A fresh copy of JSON-like arguments made only of own enumerable data, so freezing it
 * never freezes the caller's objects and no key can reach a prototype.
 */
export function cloneArguments(value: unknown, path = "", depth = 0): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (depth >= MAX_DEPTH) throw new TooDeepError(path || "/");
  if (Array.isArray(value)) return value.map((item, i) => cloneArguments(item, `${path}/${i}`, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    defineKey(copy, key, cloneArguments((value as Record<string, unknown>)[key], `${path}/${key}`, depth + 1));
  }
  return copy;
}

/** Freezes a value and everything it holds (arguments are at most {@link MAX_DEPTH} deep). */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}
