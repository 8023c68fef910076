import { childPath } from "../validation/render.js";

/** Arguments nested deeper than this are refused: every walk over them stays far from the stack limit. */
export const MAX_DEPTH = 64;

/**
 * Arguments holding more values than this (at any depth) are checked only up to their
 * first problem, and never repaired: listing or repairing a million wrong items would
 * take seconds, and the model learns as much from the first one.
 */
export const MAX_FULL_CHECK_VALUES = 10_000;

/**
 * Why {@link cloneArguments} refused a value: nested past {@link MAX_DEPTH}, a number
 * that is not finite (`1e999` parses to `Infinity`), or a caller's object whose getter or
 * proxy trap threw while it was read.
 */
export type ArgumentReadProblem = "too_deep" | "not_finite" | "unreadable";

/** Thrown by {@link cloneArguments} on a value it cannot take as arguments. */
export class ArgumentReadError extends Error {
  /** The keys leading to the refused value, filled in as the walk unwinds. */
  readonly keys: string[] = [];
  constructor(
    readonly problem: ArgumentReadProblem,
    /** The refused number, or what the failed read threw. */
    readonly found: unknown,
  ) {
    super(`arguments refused: ${problem}`);
  }
  get path(): string {
    return this.keys.map((key) => childPath("", key)).join("");
  }
}

/** How many values (of any kind, at any depth) a walk met; see {@link cloneArguments}. */
export interface ValueCount {
  values: number;
}

/**
 * Sets `key` as an own data property. Plain assignment of `__proto__` would replace the
 * object's prototype instead; defining it keeps it an ordinary (and rejectable) key.
 */
export function defineKey(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function walk(value: unknown, copy: boolean, freeze: boolean, depth: number, count: ValueCount): unknown {
  count.values++;
  if (typeof value === "number" && !Number.isFinite(value)) throw new ArgumentReadError("not_finite", value);
  if (typeof value !== "object" || value === null) return value;
  if (depth >= MAX_DEPTH) throw new ArgumentReadError("too_deep", undefined);
  // The key being read when something threw; undefined while reading this value itself.
  let key: string | number | undefined;
  try {
    // A caller's Date (for a `Date` parameter, or arguments a hook changed) is sent as JSON sends it.
    if (value instanceof Date) return value.toISOString();
    if (Array.isArray(value)) {
      const fresh: unknown[] = [];
      for (key = 0; key < value.length; key++) {
        const item = walk(value[key], copy, freeze, depth + 1, count);
        if (copy) fresh.push(item);
      }
      const done = copy ? fresh : value;
      return freeze ? Object.freeze(done) : done;
    }
    const record = value as Record<string, unknown>;
    const fresh: Record<string, unknown> = {};
    for (key of Object.keys(record)) {
      const item = walk(record[key], copy, freeze, depth + 1, count);
      // Plain assignment keeps V8's fast object layout, which Ajv reads about twice as fast
      // as objects built by defineProperty; only `__proto__` needs defining (see defineKey).
      if (!copy) continue;
      if (key === "__proto__") defineKey(fresh, key, item);
      else fresh[key] = item;
    }
    const done = copy ? fresh : record;
    return freeze ? Object.freeze(done) : done;
  } catch (error) {
    // A caller's getter or proxy trap can throw anything; reading arguments throws only our own error.
    const refused = error instanceof ArgumentReadError ? error : new ArgumentReadError("unreadable", error);
    if (key !== undefined) refused.keys.unshift(String(key));
    throw refused;
  }
}

/**
 * A fresh copy of JSON-like arguments made only of own enumerable data, so freezing it
 * never freezes the caller's objects and no key can reach a prototype; a `Date` becomes
 * its ISO string. With `copy` false
 * (for a value JSON.parse just made, which is already such a copy) it only checks it.
 * Throws {@link ArgumentReadError} on nesting past {@link MAX_DEPTH}, on a non-finite
 * number, and when reading the value throws. `count`, when given, is increased by the
 * number of values met. With `freeze`, every object and array of the result is frozen in
 * the same pass (in place when not copying, so only for a value no one else holds), and
 * needs no {@link deepFreeze} of its own.
 */
export function cloneArguments(
  value: unknown,
  copy = true,
  count: ValueCount = { values: 0 },
  freeze = false,
): unknown {
  return walk(value, copy, freeze, 0, count);
}

/** Freezes a value and everything it holds (arguments are at most {@link MAX_DEPTH} deep). */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  if (Array.isArray(value)) {
    // Indexes, not Object.keys: a million-item array would first become a million strings.
    for (const item of value) deepFreeze(item);
  } else {
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}
