import { describe, expect, it } from "vitest";
import { nearMiss } from "../../src/validation/near-miss.js";

describe("nearMiss", () => {
  const accepted = ["orderId", "travellers", "cabin", "maxStops"];

  it.each([
    ["order_id", "orderId"],
    ["order", "orderId"],
    ["ORDERID", "orderId"],
    ["traveller", "travellers"],
    ["travelers", "travellers"],
    ["cabn", "cabin"],
    ["max_stops", "maxStops"],
  ])("suggests %s -> %s", (key, expected) => {
    expect(nearMiss(key, accepted)).toBe(expected);
  });

  it.each(["notes", "x", "cab", "date", "c".repeat(100)])("does not guess for %s", (key) => {
    expect(nearMiss(key, accepted)).toBeUndefined();
  });

  it("does not choose between two equally close keys", () => {
    expect(nearMiss("item1", ["item2", "item3"])).toBeUndefined();
    expect(nearMiss("c", ["a", "b"])).toBeUndefined();
  });
});
