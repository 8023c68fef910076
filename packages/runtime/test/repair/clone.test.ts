import { describe, expect, it } from "vitest";
import { cloneArguments, deepFreeze, MAX_DEPTH, TooDeepError } from "../../src/repair/clone.js";

describe("cloneArguments", () => {
  it("copies own enumerable data into fresh objects", () => {
    const inner = { b: [1, { c: 2 }] };
    const copy = cloneArguments({ a: inner }) as { a: typeof inner };
    expect(copy).toEqual({ a: inner });
    expect(copy.a).not.toBe(inner);
    expect(copy.a.b[1]).not.toBe(inner.b[1]);
  });

  it("copies a __proto__ own key as an own key", () => {
    const source = JSON.parse('{"__proto__": {"x": 1}}') as object;
    const copy = cloneArguments(source) as object;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(copy, "__proto__")?.value).toEqual({ x: 1 });
  });

  it("only walks a value when asked not to copy", () => {
    const value = { a: [1] };
    expect(cloneArguments(value, false)).toBe(value);
  });

  it.each([true, false])("refuses nesting past the limit and says where (copy %s)", (copy) => {
    let deep: unknown = 1;
    for (let i = 0; i < MAX_DEPTH + 5; i++) deep = i % 2 ? { k: deep } : [deep];
    const error = (() => {
      try {
        cloneArguments({ top: deep }, copy);
      } catch (e) {
        return e;
      }
    })() as TooDeepError;
    expect(error).toBeInstanceOf(TooDeepError);
    expect(error.path.startsWith("/top/0/k/0/k")).toBe(true);
    expect(error.keys).toHaveLength(MAX_DEPTH);
  });
});

describe("deepFreeze", () => {
  it("freezes every level", () => {
    const value = deepFreeze({ a: { b: [{ c: 1 }] } });
    expect(Object.isFrozen(value.a.b[0])).toBe(true);
    expect(() => {
      (value.a.b as unknown[]).push(2);
    }).toThrow(TypeError);
  });
});
