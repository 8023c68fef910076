import type { ValidationIssue } from "../errors.js";
import { defineKey } from "../repair/clone.js";
import { DATE_KEYWORD, type JsonSchema } from "../tools/spec.js";
import { at, childPath, renderValue } from "./render.js";
import { branches, itemSchema, propertySchema, resolve, typesOf } from "./schema-nav.js";

const withDates = new WeakMap<JsonSchema, boolean>();

/** True when some node of `schema` is a `Date` (marked with {@link DATE_KEYWORD}); cached per schema. */
export function hasDates(schema: JsonSchema): boolean {
  let found = withDates.get(schema);
  if (found === undefined) {
    found = JSON.stringify(schema).includes(`"${DATE_KEYWORD}":true`);
    withDates.set(schema, found);
  }
  return found;
}

/** RFC 3339 date-time, as the `date-time` format accepts it: `T` or a space, `Z` or an offset. */
const DATE_TIME = /^(\d{4})-(\d\d)-(\d\d)[Tt ](\d\d):(\d\d):(\d\d)(\.\d+)?(?:([Zz])|([+-])(\d\d)(?::?(\d\d))?)$/;

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysIn(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : (DAYS[month - 1] ?? 0);
}

/** RFC 3339 full-date, as the `date` format accepts it. */
const FULL_DATE = /^(\d{4})-(\d\d)-(\d\d)$/;

/**
 * The moment an RFC 3339 date-time names, or `undefined` when it names none: the text
 * matched the format, but `2026-02-31` or `25:00` is no real date (JavaScript's own parser
 * would quietly roll February 31 over to March 3). With `dateOnly` (a `Date` tagged
 * `@format date`), the text is a full-date (`2026-05-01`) and names its midnight UTC.
 */
export function parseDateTime(text: string, dateOnly = false): Date | undefined {
  const m = dateOnly ? FULL_DATE.exec(text) : DATE_TIME.exec(text);
  if (!m) return undefined;
  // A full-date has no time fields: they read as 0.
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const [offsetHours, offsetMinutes] = [Number(m[10] ?? 0), Number(m[11] ?? 0)];
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return undefined;
  const millis = Math.floor(Number(`0${m[7] ?? ""}`) * 1000);
  const offset = m[8] ? 0 : (m[9] === "-" ? -1 : 1) * (offsetHours * 60 + offsetMinutes);
  // Field by field: Date.UTC would read the years 0-99 as 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, millis);
  date.setTime(date.getTime() - offset * 60_000);
  return date;
}

function isDate(schema: JsonSchema): boolean {
  return schema[DATE_KEYWORD] === true;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The branch of a union `value` belongs to: the only one admitting its JSON type, else,
 * for an object, the one whose constant discriminator key it carries. `undefined` when no
 * single branch can be told apart; then no date in it is revived.
 */
function branchOf(schema: JsonSchema, root: JsonSchema, value: unknown): JsonSchema | undefined {
  const parts = branches(schema, root);
  if (parts.length === 0) return schema;
  const type = typeof value === "string" ? "string" : Array.isArray(value) ? "array" : "object";
  const fitting = parts.filter((p) => typesOf(p, root)?.has(type) ?? true);
  if (fitting.length <= 1 || !isRecord(value)) return fitting[0];
  const named = fitting.filter((p) =>
    Object.keys(value).some((key) => {
      const sub = propertySchema(p, key);
      return sub !== undefined && Object.hasOwn(resolve(sub, root), "const") && resolve(sub, root).const === value[key];
    }),
  );
  return named.length === 1 ? named[0] : undefined;
}

function revive(
  value: unknown,
  schema: JsonSchema | undefined,
  root: JsonSchema,
  path: string,
  issues: ValidationIssue[],
): unknown {
  if (!schema || value === null || (typeof value !== "object" && typeof value !== "string")) return value;
  const branch = branchOf(resolve(schema, root), root, value);
  if (!branch) return value;
  const s = resolve(branch, root);
  if (typeof value === "string") {
    if (!isDate(s)) return value;
    const dateOnly = s.format === "date";
    const date = parseDateTime(value, dateOnly);
    if (!date) {
      const example = dateOnly ? `date such as "2026-03-01"` : `date-time such as "2026-03-01T09:30:00Z"`;
      issues.push({
        code: "invalid_value",
        path,
        message: `${at(path)}must be a real ${example}, got ${renderValue(value)}`,
      });
    }
    return date ?? value;
  }
  if (Array.isArray(value))
    return value.map((item, i) => revive(item, itemSchema(s, i), root, childPath(path, i), issues));
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    defineKey(copy, key, revive(item, propertySchema(s, key), root, childPath(path, key), issues));
  }
  return copy;
}

/**
 * Validated arguments with every `Date` member (a string in the JSON) turned into a
 * `Date`, on fresh containers; the text of a date that names no real moment is an issue
 * at its path. Arguments of a schema without dates are returned as they are.
 */
export function reviveDates(args: unknown, schema: JsonSchema): { value: unknown; issues: ValidationIssue[] } {
  const issues: ValidationIssue[] = [];
  if (!hasDates(schema)) return { value: args, issues };
  const value = revive(args, schema, schema, "", issues);
  return { value, issues };
}

const withDays = new WeakMap<JsonSchema, boolean>();

/** True when some `Date` node of `schema` is tagged `@format date`; cached per schema. */
function hasDays(schema: JsonSchema): boolean {
  let found = withDays.get(schema);
  if (found === undefined) {
    found = hasDates(schema) && JSON.stringify(schema).includes('"format":"date"');
    withDays.set(schema, found);
  }
  return found;
}

function asWritten(value: unknown, schema: JsonSchema | undefined, root: JsonSchema): unknown {
  if (!schema || typeof value !== "object" || value === null) return value;
  // A Date is written as a string: pick the branch a string would take.
  const branch = branchOf(resolve(schema, root), root, value instanceof Date ? "" : value);
  if (!branch) return value;
  const s = resolve(branch, root);
  if (value instanceof Date) {
    const day = isDate(s) && s.format === "date" && !Number.isNaN(value.getTime());
    return day ? value.toISOString().slice(0, 10) : value;
  }
  if (Array.isArray(value)) return value.map((item, i) => asWritten(item, itemSchema(s, i), root));
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    defineKey(copy, key, asWritten((value as Record<string, unknown>)[key], propertySchema(s, key), root));
  }
  return copy;
}

/**
 * A result as its JSON is to be written: each `Date` at a node of `schema` tagged
 * `@format date` becomes its UTC calendar day (`"2026-05-01"`), the counterpart of
 * {@link reviveDates}; every other `Date` keeps its ISO date-time. A result whose schema
 * has no such node is returned as it is.
 */
export function datesAsWritten(value: unknown, schema: JsonSchema): unknown {
  return hasDays(schema) ? asWritten(value, schema, schema) : value;
}
