import { describe, expect, it } from "vitest";
import { capResult, serializeResult } from "../src/index.js";

describe("serializeResult", () => {
  it("passes strings through and writes undefined as an empty result", () => {
    expect(serializeResult("plain text")).toBe("plain text");
    expect(serializeResult(undefined)).toBe("");
    expect(serializeResult(null)).toBe("null");
    expect(serializeResult(42)).toBe("42");
  });

  it("writes cycles as [Circular] without mistaking shared references for cycles", () => {
    const node: Record<string, unknown> = { id: 1 };
    node.self = node;
    const shared = { x: 1 };
    expect(serializeResult({ node, a: shared, b: shared })).toBe(
      '{"node":{"id":1,"self":"[Circular]"},"a":{"x":1},"b":{"x":1}}',
    );
  });

  it("handles BigInt, Date, Map, Set, Error, class instances, functions, symbols and toJSON", () => {
    class Point {
      constructor(
        readonly x: number,
        readonly y: number,
      ) {}
      norm() {
        return Math.hypot(this.x, this.y);
      }
    }
    const value = {
      big: 2n ** 70n,
      at: new Date(Date.UTC(2026, 10, 29)),
      byName: new Map([["a", 1]]),
      byObject: new Map([[{ k: 1 }, "v"]]),
      tags: new Set(["x", "y"]),
      error: new TypeError("bad"),
      point: new Point(3, 4),
      fn: () => 1,
      sym: Symbol("s"),
      money: { toJSON: () => "12.50 EUR" },
    };
    expect(JSON.parse(serializeResult(value))).toEqual({
      big: "1180591620717411303424",
      at: "2026-11-29T00:00:00.000Z",
      byName: { a: 1 },
      byObject: [[{ k: 1 }, "v"]],
      tags: ["x", "y"],
      error: { name: "TypeError", message: "bad" },
      point: { x: 3, y: 4 },
      money: "12.50 EUR",
    });
  });

  it("detects a cycle that runs through a Map", () => {
    const root: Record<string, unknown> = {};
    root.children = new Map([["me", root]]);
    expect(serializeResult(root)).toBe('{"children":{"me":"[Circular]"}}');
  });

  it("never throws, even when toJSON does", () => {
    const hostile = {
      toJSON() {
        throw new Error("no way");
      },
    };
    expect(serializeResult(hostile)).toBe("[unserializable result: no way]");
  });
});

describe("capResult", () => {
  it("leaves short results alone", () => {
    expect(capResult("abc", 3)).toEqual({ content: "abc", truncated: false });
  });

  it("cuts long results and says how much was cut", () => {
    expect(capResult("abcdefghij", 4)).toEqual({
      content: "abcd\n[toolwright: result truncated, 6 of 10 characters cut]",
      truncated: true,
    });
  });
});
