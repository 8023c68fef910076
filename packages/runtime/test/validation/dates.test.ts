import { describe, expect, it } from "vitest";
import { dialects } from "../../src/dialects/index.js";
import { asTool, runTool, type Tool, ToolShapeError, validateArguments } from "../../src/index.js";
import { DATE_KEYWORD } from "../../src/tools/spec.js";
import { datesAsWritten, parseDateTime } from "../../src/validation/dates.js";

const date = { type: "string", format: "date-time", [DATE_KEYWORD]: true };

function schemaTool(properties: Record<string, unknown>, $defs: Record<string, unknown> = {}): Tool {
  return asTool({
    name: "t",
    description: "A test tool.",
    parameters: { type: "object", properties, additionalProperties: false, $defs },
    execute: () => "ran",
  });
}

describe("parseDateTime", () => {
  it.each([
    ["2026-03-01T09:30:00Z", "2026-03-01T09:30:00.000Z"],
    ["2026-03-01t09:30:00.5z", "2026-03-01T09:30:00.500Z"],
    ["2026-03-01T09:30:00+05:30", "2026-03-01T04:00:00.000Z"],
    ["2026-03-01T00:30:00-0100", "2026-03-01T01:30:00.000Z"],
    ["2024-02-29T12:00:00Z", "2024-02-29T12:00:00.000Z"],
    ["0099-12-31T23:59:59.999Z", "0099-12-31T23:59:59.999Z"],
  ])("reads %s", (text, iso) => {
    expect(parseDateTime(text)?.toISOString()).toBe(iso);
  });

  it.each([
    "2026-02-31T10:00:00Z",
    "2025-02-29T10:00:00Z",
    "2026-13-01T10:00:00Z",
    "2026-00-10T10:00:00Z",
    "2026-03-01T24:00:00Z",
    "2026-03-01T10:60:00Z",
    "2026-03-01T10:00:60Z",
    "2026-03-01T10:00:00+24:00",
    "2026-03-01T10:00:00",
    "2026-03-01",
    "next Tuesday",
  ])("names no moment: %s", (text) => {
    expect(parseDateTime(text)).toBeUndefined();
  });
});

describe("validateArguments: Date members arrive as Dates", () => {
  const events = schemaTool(
    {
      at: date,
      maybe: { type: ["string", "null"], format: "date-time", [DATE_KEYWORD]: true },
      tree: { $ref: "#/$defs/Node" },
      event: {
        anyOf: [
          { type: "object", properties: { kind: { const: "a" }, when: date }, required: ["kind"] },
          { type: "object", properties: { kind: { const: "b" }, when: { type: "string" } }, required: ["kind"] },
        ],
      },
      note: { type: "string", format: "date-time" },
    },
    {
      Node: {
        type: "object",
        properties: { at: date, children: { type: "array", items: { $ref: "#/$defs/Node" } } },
        additionalProperties: false,
      },
    },
  );

  it("revives dates through $ref recursion, nullable types and a discriminated union, and nothing else", () => {
    const check = validateArguments(events, {
      at: "2026-03-01T09:30:00Z",
      maybe: null,
      tree: { at: "2026-03-01T09:30:00Z", children: [{ children: [{ at: "2026-03-02T09:30:00Z" }] }] },
      event: { kind: "a", when: "2026-03-03T09:30:00Z" },
      note: "2026-03-04T09:30:00Z",
    });
    if (!check.ok) throw check.error;
    const args = check.args;
    expect(args.at).toEqual(new Date("2026-03-01T09:30:00Z"));
    expect(args.maybe).toBeNull();
    expect(args.tree.children[0].children[0].at).toEqual(new Date("2026-03-02T09:30:00Z"));
    expect(args.event.when).toEqual(new Date("2026-03-03T09:30:00Z"));
    // A string with the date-time format that is not a TypeScript Date stays a string.
    expect(args.note).toBe("2026-03-04T09:30:00Z");
    expect(Object.isFrozen(args.tree.children[0])).toBe(true);
  });

  it("leaves a string member of the other union branch a string", () => {
    const check = validateArguments(events, { event: { kind: "b", when: "2026-03-03T09:30:00Z" } });
    expect(check.ok && check.args.event.when).toBe("2026-03-03T09:30:00Z");
  });

  it("takes a caller's Date as its ISO text, and refuses an invalid Date", () => {
    const check = validateArguments(events, { at: new Date("2026-03-01T09:30:00Z"), maybe: new Date(0) });
    expect(check.ok && check.args.maybe).toEqual(new Date(0));
    const invalid = validateArguments(events, { at: new Date(Number.NaN) });
    expect(!invalid.ok && invalid.error.issues.map((i) => [i.code, i.path])).toEqual([["unreadable", "/at"]]);
  });

  it("reports date text that names no moment at its path", () => {
    const check = validateArguments(events, { tree: { children: [{ at: "2026-02-30T10:00:00Z" }] } });
    expect(!check.ok && check.error.issues).toEqual([
      {
        code: "invalid_value",
        path: "/tree/children/0/at",
        message:
          '/tree/children/0/at: must be a real date-time such as "2026-03-01T09:30:00Z", got "2026-02-30T10:00:00Z" (a string)',
      },
    ]);
  });

  it("never sends the runtime's keyword through a dialect", () => {
    for (const dialect of Object.values(dialects)) {
      expect(JSON.stringify(dialect.toDialect(events.parameters).schema)).not.toContain(DATE_KEYWORD);
    }
  });
});

describe("a Date tagged @format date: a calendar day, at midnight UTC", () => {
  const day = { type: "string", format: "date", [DATE_KEYWORD]: true };

  it.each([
    ["2026-05-01", "2026-05-01T00:00:00.000Z"],
    ["2024-02-29", "2024-02-29T00:00:00.000Z"],
    ["0099-12-31", "0099-12-31T00:00:00.000Z"],
  ])("reads %s as its midnight UTC", (text, iso) => {
    expect(parseDateTime(text, true)?.toISOString()).toBe(iso);
  });

  it.each(["2026-02-30", "2025-02-29", "2026-13-01", "2026-05-01T00:00:00Z", "20260501"])(
    "names no day: %s",
    (text) => {
      expect(parseDateTime(text, true)).toBeUndefined();
    },
  );

  const stays = schemaTool({ checkIn: day, at: date, nights: { type: "array", items: day } });

  it("revives the day as a Date and a date-time beside it as before", () => {
    const check = validateArguments(stays, {
      checkIn: "2026-05-01",
      at: "2026-05-01T15:30:00Z",
      nights: ["2026-05-02"],
    });
    if (!check.ok) throw check.error;
    expect(check.args.checkIn).toEqual(new Date("2026-05-01T00:00:00Z"));
    expect(check.args.at).toEqual(new Date("2026-05-01T15:30:00Z"));
    expect(check.args.nights).toEqual([new Date("2026-05-02T00:00:00Z")]);
  });

  it("refuses a date-time where a day is asked, and a day that does not exist, at their paths", () => {
    const moment = validateArguments(stays, { checkIn: "2026-05-01T00:00:00Z" });
    expect(!moment.ok && moment.error.issues.map((i) => [i.code, i.path])).toEqual([["invalid_value", "/checkIn"]]);
    const check = validateArguments(stays, { checkIn: "2026-02-30" });
    expect(!check.ok && check.error.issues).toEqual([
      {
        code: "invalid_value",
        path: "/checkIn",
        message: '/checkIn: must be a real date such as "2026-03-01", got "2026-02-30" (a string)',
      },
    ]);
  });

  it("writes a returned Date at such a node as its UTC day, and one elsewhere as its date-time", async () => {
    const schema = { type: "object", properties: { checkIn: day, at: date }, required: ["checkIn"] };
    const value = { checkIn: new Date("2026-05-01T22:00:00Z"), at: new Date("2026-05-01T15:30:00Z") };
    expect(datesAsWritten(value, schema)).toEqual({ checkIn: "2026-05-01", at: value.at });
    const booked = asTool({
      name: "book",
      description: "Book a stay.",
      parameters: { type: "object", properties: {}, additionalProperties: false },
      outputSchema: schema,
      execute: () => value,
    });
    const result = await runTool(booked, {});
    expect(JSON.parse(result.content)).toEqual({ checkIn: "2026-05-01", at: "2026-05-01T15:30:00.000Z" });
    // The same Date under a date-time schema would have been written whole and refused as a day.
    const whole = asTool({
      ...booked,
      name: "whole",
      outputSchema: { type: "object", properties: { checkIn: { type: "string", format: "date" } } },
    });
    await expect(runTool(whole, {})).rejects.toBeInstanceOf(ToolShapeError);
  });
});
