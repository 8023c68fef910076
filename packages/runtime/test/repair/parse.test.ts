import { describe, expect, it } from "vitest";
import { parseArguments } from "../../src/repair/parse.js";

describe("parseArguments", () => {
  it("reads strict JSON with no repair", () => {
    expect(parseArguments('{"a":1}')).toEqual({ ok: true, empty: false, value: { a: 1 }, repairs: [] });
  });

  it("takes an object as it is (Anthropic, Gemini)", () => {
    const value = { a: 1 };
    expect(parseArguments(value)).toEqual({ ok: true, empty: false, value, repairs: [] });
  });

  it.each([undefined, null, "", " \n"])("treats %j as no arguments", (raw) => {
    expect(parseArguments(raw)).toEqual({ ok: true, empty: true, value: {}, repairs: [] });
  });

  it.each([
    ['```json\n{"a":1}\n```', "removed a code fence"],
    ['```\n{"a":1}\n```', "removed a code fence"],
    ['```json {"a":1}```', "removed a code fence"],
    ['```json\n{"a":1,}\n```', "removed a code fence and repaired broken JSON"],
    ['{"a":1,}', "repaired broken JSON"],
    ["{a: 1}", "repaired broken JSON"],
    ['{"a": 1', "repaired broken JSON"],
    ['{"a": "x" /* note */}', "repaired broken JSON"],
  ])("repairs %j", (raw, detail) => {
    const parsed = parseArguments(raw);
    expect(parsed.ok && parsed.repairs).toEqual([{ kind: "json_repaired", path: "", detail }]);
  });

  it("decodes a whole-arguments object that was JSON-encoded twice", () => {
    expect(parseArguments(JSON.stringify(JSON.stringify({ a: 1 })))).toEqual({
      ok: true,
      empty: false,
      value: { a: 1 },
      repairs: [
        { kind: "json_string_decoded", path: "", detail: "the arguments were a JSON string holding an object" },
      ],
    });
  });

  it("keeps __proto__ from JSON as an own key, never as a prototype", () => {
    const parsed = parseArguments('{"__proto__": {"polluted": true}}');
    const value = parsed.ok ? (parsed.value as object) : {};
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(["__proto__"]);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });
});
