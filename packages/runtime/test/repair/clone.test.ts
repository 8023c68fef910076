import { describe, expect, it } from "vitest";
import { ArgumentReadError, cloneArguments, deepFreeze, MAX_DEPTH } from "../../src/repair/clone.js";

function refusal(value: unknown, copy = true): ArgumentReadError {
  try {
    cloneArguments(value, copy);
  } catch (error) {
    if (error instanceof ArgumentReadError) return error;
    throw error;
  }
  throw new Error("cloneArguments accepted the value");
}

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
    const error = refusal({ top: deep }, copy);
    expect(error.problem).toBe("too_deep");
    expect(error.path.startsWith("/top/0/k/0/k")).toBe(true);
    expect(error.keys).toHaveLength(MAX_DEPTH);
  });

  it.each([true, false])("refuses numbers that are not finite and says where (copy %s)", (copy) => {
    const error = refusal(JSON.parse('{"a": [1, {"page": 1e999}]}'), copy);
    expect(error.problem).toBe("not_finite");
    expect(error.found).toBe(Number.POSITIVE_INFINITY);
    expect(error.path).toBe("/a/1/page");
    expect(refusal({ n: Number.NaN }).path).toBe("/n");
  });

  it("turns a throwing getter into its own error, at the getter's key", () => {
    const boom = new Error("boom");
    const error = refusal({
      a: {
        get b() {
          throw boom;
        },
      },
    });
    expect(error.problem).toBe("unreadable");
    expect(error.found).toBe(boom);
    expect(error.path).toBe("/a/b");
  });

  it("turns a revoked or throwing proxy into its own error, at the proxy", () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const revoked = refusal({ list: [1, proxy] });
    expect(revoked.problem).toBe("unreadable");
    expect(revoked.found).toBeInstanceOf(TypeError);
    expect(revoked.path).toBe("/list/1");
    const keys = new Proxy(
      {},
      {
        ownKeys() {
          throw new RangeError("no keys");
        },
      },
    );
    expect(refusal(keys).path).toBe("");
    expect(refusal(keys).found).toBeInstanceOf(RangeError);
  });

  it("freezes every level of the copy in the same pass when asked, never the source", () => {
    const source = { a: [1, { b: "x" }] };
    const copy = cloneArguments(source, true, { values: 0 }, true) as typeof source;
    expect(Object.isFrozen(copy) && Object.isFrozen(copy.a) && Object.isFrozen(copy.a[1])).toBe(true);
    expect(Object.isFrozen(source) || Object.isFrozen(source.a) || Object.isFrozen(source.a[1])).toBe(false);
  });

  it("freezes in place when asked not to copy (a value no one else holds)", () => {
    const value = JSON.parse('{"a": [1, {"b": "x"}]}') as { a: [number, object] };
    expect(cloneArguments(value, false, { values: 0 }, true)).toBe(value);
    expect(Object.isFrozen(value) && Object.isFrozen(value.a) && Object.isFrozen(value.a[1])).toBe(true);
  });

  it("counts every value it meets", () => {
    const count = { values: 0 };
    cloneArguments({ a: [1, 2, { b: "x" }] }, false, count);
    expect(count.values).toBe(6);
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
