import { type CompiledSchema, SCHEMA_SPEC_VERSION, type Schema, type SchemaSpec, schema } from "../../src/index.js";

/**
 * `schema<T>()` as the compiler's output calls it, with the spec built by hand in the exact
 * form the compiler emits (output/spec.ts): until the compiler writes these sites, the
 * runtime's tests pass the spec themselves.
 */
export function compiledSchema<T>(
  json: Record<string, unknown>,
  extra: Partial<SchemaSpec> = {},
  options?: { name?: string; description?: string },
): Schema<T> {
  const spec: CompiledSchema = {
    $toolwrightSchema: SCHEMA_SPEC_VERSION,
    name: "Report",
    schema: json,
    source: { file: "src/report.ts", line: 4 },
    ...extra,
  };
  return schema<T>(options, spec);
}

/** A weather report: the answer type most tests use. */
export interface Report {
  city: string;
  celsius: number;
  /** When it was measured. */
  at: Date;
  note?: string;
}

export const REPORT_SCHEMA = {
  type: "object",
  properties: {
    city: { type: "string" },
    celsius: { type: "number" },
    at: { type: "string", format: "date-time", "x-toolwright-date": true, description: "When it was measured." },
    note: { type: "string" },
  },
  required: ["city", "celsius", "at"],
  additionalProperties: false,
} as const;

export const report = (): Schema<Report> =>
  compiledSchema<Report>(REPORT_SCHEMA, { description: "A weather report for one city." });
