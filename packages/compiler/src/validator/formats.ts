/**
 * The string formats every validator of the runtime checks: ajv-formats' ("fast" mode, as
 * the runtime's Ajv loads them). The generated validators check `date-time`, `date`,
 * `time`, `email` and `uuid` with the runtime's own expressions and the others with
 * ajv-formats' table itself. ajv-formats' `password` and `binary` accept anything, so they
 * are no constraint and are not listed.
 */
export const CHECKED_STRING_FORMATS: ReadonlySet<string> = new Set([
  "date",
  "time",
  "date-time",
  "iso-time",
  "iso-date-time",
  "duration",
  "uri",
  "uri-reference",
  "uri-template",
  "url",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "regex",
  "uuid",
  "json-pointer",
  "json-pointer-uri-fragment",
  "relative-json-pointer",
  "byte",
]);
/** ajv-formats' formats for numbers: checked by Ajv (a schema using one gets no generated validator). */
export const CHECKED_NUMBER_FORMATS: ReadonlySet<string> = new Set(["int32", "int64", "float", "double"]);
