import { childPath } from "../validation/render.js";

/** Arguments nested deeper than this are refused: every walk over them stays far from the stack limit. */
export const MAX_DEPTH = 64;

/** Thrown by {@link cloneArguments} on arguments nested deeper than {@link MAX_DEPTH}. */
export class TooDeepError extends Error {
  /** The keys leading to the value too deep, filled in as the walk unwinds. */
  readonly keys: string[] = [];
  get path(): string {
    return this.keys.map((key) => childPath("", key)).join("");
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
 * never freezes the caller's objects and no key can reach a prototype. With `copy` false
 * (for a value JSON.parse just made, which is already such a copy) it only checks depth.
 */
export function cloneArguments(value: unknown, copy = true, depth = 0): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (depth >= MAX_DEPTH) throw new TooDeepError(`nested deeper than ${MAX_DEPTH} levels`);
  let key = "";
  try {
    if (Array.isArray(value)) {
      if (!copy) {
        for (let i = 0; i < value.length; i++) {
          key = String(i);
          cloneArguments(value[i], false, depth + 1);
        }
        return value;
      }
      return value.map((item, i) => {
        key = String(i);
        return cloneArguments(item, true, depth + 1);
      });
    }
    const record = value as Record<string, unknown>;
    if (!copy) {
      for (key of Object.keys(record)) cloneArguments(record[key], false, depth + 1);
      return value;
    }
    const fresh: Record<string, unknown> = {};
    for (key of Object.keys(record)) {
      const item = cloneArguments(record[key], true, depth + 1);
      // Plain assignment keeps V8's fast object layout, which Ajv reads about twice as fast
      // as objects built by defineProperty; only `__proto__` needs defining (see defineKey).
      if (key === "__proto__") defineKey(fresh, key, item);
      else fresh[key] = item;
    }
    return fresh;
  } catch (error) {
    if (error instanceof TooDeepError) error.keys.unshift(key);
    throw error;
  }
}

/** Freezes a value and everything it holds (arguments are at most {@link MAX_DEPTH} deep). */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}
