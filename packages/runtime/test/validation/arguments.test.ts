import { describe, expect, it } from "vitest";
import { asTool, type Tool, ToolDefinitionError, validateArguments } from "../../src/index.js";

function schemaTool(parameters: Record<string, unknown>, name = "t"): Tool {
  return asTool({ name, description: "A test tool.", parameters, execute: () => "ran" });
}

const orders = schemaTool({
  type: "object",
  properties: {
    id: { type: "string" },
    qty: { type: "integer" },
    price: { type: "number" },
    express: { type: "boolean" },
    note: { type: "string" },
    address: { $ref: "#/$defs/Address" },
    lines: { type: "array", items: { $ref: "#/$defs/Line" } },
    maybeQty: { anyOf: [{ type: "integer" }, { type: "null" }] },
  },
  required: ["id"],
  additionalProperties: false,
  $defs: {
    Address: { type: "object", properties: { zip: { type: "integer" } }, additionalProperties: false },
    Line: { type: "object", properties: { qty: { type: "integer" }, gift: { type: "boolean" } }, required: ["qty"] },
  },
});

describe("validateArguments: safe repairs, each recorded", () => {
  it("passes valid arguments through unchanged with no repairs", () => {
    const check = validateArguments(orders, '{"id":"A-1","qty":2}');
    expect(check).toEqual({ ok: true, args: { id: "A-1", qty: 2 }, repairs: [] });
  });

  it("strips a code fence", () => {
    const check = validateArguments(orders, '```json\n{"id":"A-1"}\n```');
    expect(check.ok && check.repairs).toEqual([{ kind: "json_repaired", path: "", detail: "removed a code fence" }]);
  });

  it("repairs trailing commas and single quotes with jsonrepair", () => {
    const check = validateArguments(orders, "{'id': 'A-1', 'qty': 2,}");
    expect(check.ok && check.args).toEqual({ id: "A-1", qty: 2 });
    expect(check.ok && check.repairs).toEqual([{ kind: "json_repaired", path: "", detail: "repaired broken JSON" }]);
  });

  it('turns "" or null into {} for a tool with no required parameter', () => {
    const noRequired = schemaTool({
      type: "object",
      properties: { q: { type: "string" } },
      additionalProperties: false,
    });
    for (const raw of ["", null, "  "]) {
      const check = validateArguments(noRequired, raw);
      expect(check.ok && check.args).toEqual({});
      expect(check.ok && check.repairs.map((r) => r.kind)).toEqual(["empty_arguments"]);
    }
  });

  it("decodes a JSON-encoded object or array where the schema wants one, following $ref", () => {
    const check = validateArguments(orders, { id: "A", address: '{"zip": 75001}', lines: '[{"qty": 1}]' });
    expect(check.ok && check.args).toEqual({ id: "A", address: { zip: 75001 }, lines: [{ qty: 1 }] });
    expect(check.ok && check.repairs).toEqual([
      { kind: "json_string_decoded", path: "/address" },
      { kind: "json_string_decoded", path: "/lines" },
    ]);
  });

  it("coerces numeric and boolean strings by the schema, inside $defs items too", () => {
    const check = validateArguments(orders, {
      id: "A",
      qty: "3",
      price: "-2.5e1",
      express: "false",
      lines: [{ qty: "1", gift: "true" }],
    });
    expect(check.ok && check.args).toEqual({
      id: "A",
      qty: 3,
      price: -25,
      express: false,
      lines: [{ qty: 1, gift: true }],
    });
    expect(check.ok && check.repairs.map((r) => `${r.kind} ${r.path}`)).toEqual([
      "string_to_number /qty",
      "string_to_number /price",
      "string_to_boolean /express",
      "string_to_number /lines/0/qty",
      "string_to_boolean /lines/0/gift",
    ]);
  });

  it("coerces inside an unambiguous anyOf (integer or null)", () => {
    const check = validateArguments(orders, { id: "A", maybeQty: "4" });
    expect(check.ok && check.args).toEqual({ id: "A", maybeQty: 4 });
  });

  it("drops null for an optional key, but keeps it where the schema allows null", () => {
    const check = validateArguments(orders, { id: "A", qty: null, maybeQty: null });
    expect(check.ok && check.args).toEqual({ id: "A", maybeQty: null });
    expect(check.ok && check.repairs).toEqual([{ kind: "null_dropped", path: "/qty" }]);
  });

  it("never coerces into a string field", () => {
    const check = validateArguments(orders, { id: 42 });
    expect(check.ok).toBe(false);
    expect(!check.ok && check.error.issues).toEqual([
      { code: "invalid_type", path: "/id", message: "/id: expected string, got 42 (a number)" },
    ]);
  });

  it("does not coerce a value the schema already accepts by type", () => {
    const check = validateArguments(orders, { id: "A", note: "5" });
    expect(check.ok && check.args).toEqual({ id: "A", note: "5" });
  });

  it("reports what is still wrong after the safe repairs, not what they fixed", () => {
    const check = validateArguments(orders, { id: "A", qty: "2.5", express: "true" });
    expect(!check.ok && check.error.issues.map((i) => i.message)).toEqual([
      '/qty: expected integer, got "2.5" (a string)',
    ]);
  });

  it("reports the real violation of a repaired value, as the model sent it (issue 11)", () => {
    const capped = schemaTool({
      type: "object",
      properties: {
        n: { type: "integer", maximum: 50 },
        tags: { type: "array", items: { type: "string" }, minItems: 2 },
        ok: { type: "boolean" },
      },
      additionalProperties: false,
    });
    const check = validateArguments(capped, { n: "70", tags: '["a"]', ok: "true", extra: 1 });
    expect(!check.ok && check.error.issues.map((i) => i.message)).toEqual([
      'unexpected key "extra"',
      '/n: must be <= 50, got "70" (a string), read as 70 (a number)',
      '/tags: must have at least 2 items, got "[\\"a\\"]" (a string), read as an array of 1 item',
    ]);
  });

  it("does not repair into an ambiguous anyOf", () => {
    const either = schemaTool({
      type: "object",
      properties: {
        v: {
          anyOf: [
            { type: "object", properties: { a: { type: "integer" } } },
            { type: "object", properties: { b: { type: "integer" } } },
          ],
        },
      },
    });
    const check = validateArguments(either, { v: { a: "1" } });
    expect(check.ok && check.args).toEqual({ v: { a: "1" } });
  });

  it("deep-freezes the arguments, and never freezes the caller's object", () => {
    const raw = { id: "A", lines: [{ qty: 1 }] };
    const check = validateArguments(orders, raw);
    if (!check.ok) throw check.error;
    expect(Object.isFrozen(check.args)).toBe(true);
    expect(Object.isFrozen(check.args.lines)).toBe(true);
    expect(Object.isFrozen(check.args.lines[0])).toBe(true);
    expect(Object.isFrozen(raw)).toBe(false);
    expect(check.args).not.toBe(raw);
  });

  it("freezes arguments parsed from text at every level, in the one pass that checks them", () => {
    const check = validateArguments(orders, '{"id":"A","lines":[{"qty":1}],"address":{"zip":1}}');
    if (!check.ok) throw check.error;
    expect(Object.isFrozen(check.args)).toBe(true);
    expect(Object.isFrozen(check.args.lines)).toBe(true);
    expect(Object.isFrozen(check.args.lines[0])).toBe(true);
    expect(Object.isFrozen(check.args.address)).toBe(true);
  });

  it("freezes what a repair made, even around parts frozen when read", () => {
    const check = validateArguments(orders, { id: "A", qty: "2", lines: ' [{"qty": "1"}]', address: { zip: 1 } });
    if (!check.ok) throw check.error;
    expect(check.args).toEqual({ id: "A", qty: 2, lines: [{ qty: 1 }], address: { zip: 1 } });
    expect(Object.isFrozen(check.args)).toBe(true);
    expect(Object.isFrozen(check.args.lines)).toBe(true);
    expect(Object.isFrozen(check.args.lines[0])).toBe(true);
    expect(Object.isFrozen(check.args.address)).toBe(true);
  });

  it("treats a key named like an Object.prototype member as present only when sent", () => {
    const t = schemaTool({
      type: "object",
      properties: { constructor: { type: "string" } },
      required: ["constructor"],
    });
    const check = validateArguments(t, "{}");
    expect(!check.ok && check.error.issues.map((i) => i.code)).toEqual(["missing_key"]);
    expect(validateArguments(t, '{"constructor":"x"}').ok).toBe(true);
  });

  it("keeps __proto__ in an open record as an ordinary own key, polluting nothing", () => {
    const t = schemaTool({ type: "object", properties: { meta: { type: "object", additionalProperties: true } } });
    const check = validateArguments(t, '{"meta":{"__proto__":{"polluted":true}}}');
    if (!check.ok) throw check.error;
    const meta = check.args.meta as Record<string, unknown>;
    expect(Object.getPrototypeOf(meta)).toBe(Object.prototype);
    expect(Object.hasOwn(meta, "__proto__")).toBe(true);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });
});

describe("validateArguments: schemas", () => {
  it("ignores unknown keywords and unknown formats, and checks known formats", () => {
    const t = schemaTool({
      type: "object",
      $comment: "written by a compiler",
      properties: {
        at: { type: "string", format: "date-time" },
        odd: { type: "string", format: "x-custom", "x-vendor": 1 },
      },
    });
    expect(validateArguments(t, { at: "2026-11-29T22:00:00Z", odd: "anything" }).ok).toBe(true);
    const bad = validateArguments(t, { at: "yesterday" });
    expect(!bad.ok && bad.error.issues[0]?.message).toBe('/at: must be a valid date-time, got "yesterday" (a string)');
  });

  it("compiles a schema on first use: a broken one fails at the call, as a definition error", () => {
    const broken = schemaTool({ type: "object", properties: { a: { $ref: "#/$defs/Missing" } } }, "broken");
    expect(() => validateArguments(broken, {})).toThrow(ToolDefinitionError);
    expect(() => validateArguments(broken, {})).toThrow(
      /tool "broken" has a parameters JSON Schema that cannot be compiled/,
    );
  });

  it("lists the accepted keys with their types and says how to go on", () => {
    const check = validateArguments(orders, { id: "A", qty: "many", colour: "red" });
    expect(!check.ok && check.error.message).toBe(
      [
        'Invalid arguments for tool "t":',
        '- unexpected key "colour"',
        '- /qty: expected integer, got "many" (a string)',
        "Accepted keys: id (string, required); qty (integer); price (number); express (boolean); note (string); address (object); lines (array of object); maybeQty (integer or null).",
        "Fix the arguments and call t again.",
      ].join("\n"),
    );
  });

  it("says so when a tool takes no arguments", () => {
    const none = schemaTool({ type: "object", properties: {}, additionalProperties: false }, "ping");
    const check = validateArguments(none, { x: 1 });
    expect(!check.ok && check.error.message).toBe(
      'Invalid arguments for tool "ping":\n- unexpected key "x"\nThis tool takes no arguments: send {}.\nFix the arguments and call ping again.',
    );
  });
});
