import { createRequire } from "node:module";
import { ISSUE_KEYWORDS, type IssueCollector, type JsonSchema, type ValidatorHelpers } from "../tools/spec.js";
import type { ErrorObject } from "./compile.js";
import { childPath } from "./render.js";

/** Code points in `text`: UTF-16 units less one per surrogate pair. */
function len(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}

/** JSON equality: same primitives, arrays item by item, objects key by key in any order. */
function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!equal(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  return keys.every((key) => Object.hasOwn(right, key) && equal(left[key], right[key]));
}

function unique(items: readonly unknown[]): boolean {
  for (let i = 1; i < items.length; i++) for (let j = 0; j < i; j++) if (equal(items[i], items[j])) return false;
  return true;
}

// RFC 3339 without a calendar check: the "fast" mode the runtime's ajv-formats also uses,
// so the generated checks and Ajv accept the same strings.
const DATE = "\\d{4}-[01]\\d-[0-3]\\d";
const TIME = "(?:[0-2]\\d:[0-5]\\d:[0-5]\\d|23:59:60)(?:\\.\\d+)?(?:z|[+-]\\d\\d(?::?\\d\\d)?)";
// An e-mail address as the HTML standard's "valid e-mail address" grammar writes it.
const LABEL = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
const HEX = "[0-9a-f]";
const FORMATS: Readonly<Record<string, RegExp>> = {
  date: new RegExp(`^${DATE}$`),
  time: new RegExp(`^${TIME}$`, "i"),
  "date-time": new RegExp(`^${DATE}t${TIME}$`, "i"),
  email: new RegExp(`^[a-z0-9.!#$%&'*+/=?^_\`{|}~-]+@${LABEL}(?:\\.${LABEL})*$`, "i"),
  uuid: new RegExp(`^(?:urn:uuid:)?${HEX}{8}-(?:${HEX}{4}-){3}${HEX}{12}$`, "i"),
};

type FormatDefinition = RegExp | ((text: string) => boolean) | { readonly validate: FormatDefinition } | boolean;
let ajvFormats: Readonly<Record<string, FormatDefinition>> | undefined;

/**
 * ajv-formats' own check of a string format the helpers do not write themselves (`uri`,
 * `hostname`, `ipv4`, ...): its table of "fast" formats, loaded on the first such format
 * (it requires nothing; Ajv itself stays unloaded), so both paths agree by construction.
 */
function ajvFormat(name: string): ((text: string) => boolean) | undefined {
  ajvFormats ??= (
    createRequire(import.meta.url)("ajv-formats/dist/formats.js") as {
      fastFormats: Record<string, FormatDefinition>;
    }
  ).fastFormats;
  let definition = Object.hasOwn(ajvFormats, name) ? ajvFormats[name] : undefined;
  if (typeof definition === "object" && !(definition instanceof RegExp)) definition = definition.validate;
  if (definition instanceof RegExp) return (text) => definition.test(text);
  return typeof definition === "function" ? definition : undefined;
}

function format(name: string): (text: string) => boolean {
  const pattern = FORMATS[name];
  if (pattern) return (text) => pattern.test(text);
  const check = ajvFormat(name);
  if (!check) throw new Error(`no generated check for format "${name}"`);
  return check;
}

/** An error a generated collector reports: Ajv's, and for `anyOf` the collectors of the branches, in order. */
export interface CollectedError extends ErrorObject {
  readonly branches?: readonly IssueCollector[] | undefined;
}

// The keyword codes the object helper reports with (generated code passes its own).
const TYPE = ISSUE_KEYWORDS.indexOf("type");
const REQUIRED = ISSUE_KEYWORDS.indexOf("required");
const ADDITIONAL = ISSUE_KEYWORDS.indexOf("additionalProperties");
const MAX_PROPERTIES = ISSUE_KEYWORDS.indexOf("maxProperties");
const MIN_PROPERTIES = ISSUE_KEYWORDS.indexOf("minProperties");

// Where the collector running now reports (see collectErrors); collectors never nest.
let reported: CollectedError[] = [];

/**
 * Reports the error Ajv (`verbose`) makes for a keyword: its params only for the keys the
 * feedback reads (limits are read from the schema), and an `anyOf`'s branch collectors.
 */
function issue(code: number, instancePath: string, parentSchema: JsonSchema, data: unknown, extra?: unknown): void {
  const keyword = ISSUE_KEYWORDS[code] as string;
  const params = { missingProperty: extra, additionalProperty: extra };
  const branches = keyword === "anyOf" ? (extra as IssueCollector[]) : undefined;
  reported.push({ instancePath, schemaPath: "", keyword, params, parentSchema, data, branches });
}

function child(code: number, path: string, schema: JsonSchema, key: string, value: unknown): void {
  issue(code, childPath(path, key), (schema.properties as Record<string, JsonSchema>)[key] as JsonSchema, value);
}

function object(value: unknown, path: string, schema: JsonSchema): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    issue(TYPE, path, schema, value);
    return false;
  }
  const record = value as Record<string, unknown>;
  const { maxProperties, minProperties, required, additionalProperties, patternProperties } = schema;
  if (maxProperties !== undefined || minProperties !== undefined) {
    const size = Object.keys(record).length;
    if (size > (maxProperties as number)) issue(MAX_PROPERTIES, path, schema, record);
    if (size < (minProperties as number)) issue(MIN_PROPERTIES, path, schema, record);
  }
  // Present means own and not undefined, as Ajv (`ownProperties`) tests it.
  for (const key of (required ?? []) as string[])
    if (!Object.hasOwn(record, key) || record[key] === undefined) issue(REQUIRED, path, schema, record, key);
  if (additionalProperties === false && patternProperties === undefined) {
    const declared = (schema.properties ?? {}) as object;
    for (const key in record) if (!Object.hasOwn(declared, key)) issue(ADDITIONAL, path, schema, record, key);
  }
  return true;
}

/** The errors `collect` reports for `value` of `schema`, as Ajv would report them. */
export function collectErrors(collect: IssueCollector, value: unknown, schema: JsonSchema): CollectedError[] {
  const errors: CollectedError[] = [];
  reported = errors;
  collect(value, "", schema);
  return errors;
}

/** The helpers every generated validator receives. */
export const validatorHelpers: ValidatorHelpers = { len, equal, unique, format, issue, child, path: childPath, object };
