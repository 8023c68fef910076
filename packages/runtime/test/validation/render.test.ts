import { describe, expect, it } from "vitest";
import { MAX_QUOTED, quote } from "../../src/validation/render.js";

describe("quote", () => {
  it("writes a short text exactly as JSON.stringify does, whatever UTF-16 unit it holds", () => {
    const differing: string[] = [];
    for (let unit = 0; unit <= 0xffff; unit++) {
      const text = `a${String.fromCharCode(unit)}b`;
      if (quote(text, "a key") !== JSON.stringify(text)) differing.push(unit.toString(16));
    }
    expect(differing).toEqual([]);
    for (const text of ["", "😀", "\ud83d", 'say "hi" \\ \n', "x".repeat(MAX_QUOTED)])
      expect(quote(text, "a key")).toBe(JSON.stringify(text));
  });

  it("cuts a long text and says how long it was", () => {
    expect(quote(`${"a".repeat(MAX_QUOTED)}"b`, "a key")).toBe(`"${"a".repeat(MAX_QUOTED)}…" (a key of 42 characters)`);
  });
});
