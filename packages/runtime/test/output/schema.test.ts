import type { StandardJSONSchemaV1, StandardSchemaV1 } from "@standard-schema/spec";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  type CompiledSchema,
  registerSchemas,
  SCHEMA_SPEC_VERSION,
  type Schema,
  SchemaDefinitionError,
  type SchemaSpec,
  schema,
} from "../../src/index.js";

// schema<T>() as the compiler's output calls it: the spec is the hidden last argument, built
// here by hand in the exact form the compiler emits (output/spec.ts documents it).

/** A weather report. */
interface Report {
  city: string;
  celsius: number;
  at: Date;
  tags?: string[];
}

const REPORT: JsonSchemaOf = {
  type: "object",
  properties: {
    city: { type: "string", minLength: 1 },
    celsius: { type: "number" },
    at: { type: "string", format: "date-time", "x-toolwright-date": true },
    tags: { type: "array", items: { type: "string" } },
  },
  required: ["city", "celsius", "at"],
  additionalProperties: false,
};
type JsonSchemaOf = Record<string, unknown>;

function specOf(json: JsonSchemaOf, extra: Partial<SchemaSpec> = {}): CompiledSchema {
  return {
    $toolwrightSchema: SCHEMA_SPEC_VERSION,
    name: "Report",
    description: "A weather report.",
    schema: json,
    source: { file: "src/report.ts", line: 4 },
    ...extra,
  };
}

describe("schema<T>() with its compiled spec", () => {
  const report = schema<Report>(undefined, specOf(REPORT));

  it("carries the name, the description and the canonical schema the compiler wrote", () => {
    expect(report.name).toBe("Report");
    expect(report.description).toBe("A weather report.");
    expect(report.jsonSchema).toBe(REPORT);
    const named = schema<Report>({ name: "weather_report", description: "Mine." }, specOf(REPORT));
    expect([named.name, named.description]).toEqual(["weather_report", "Mine."]);
  });

  it("validates a value into its type: repairs what is safe, revives dates, copies instead of changing", () => {
    const given = { city: "Paris", celsius: "18.5", at: "2026-03-01T09:30:00Z" };
    const check = report.validate(given);
    expect(check).toEqual({
      ok: true,
      value: { city: "Paris", celsius: 18.5, at: new Date("2026-03-01T09:30:00Z") },
      repairs: [{ kind: "string_to_number", path: "/celsius" }],
    });
    expect(given.celsius).toBe("18.5");
    if (check.ok) expect(check.value.at).toBeInstanceOf(Date);
    // A Date the caller passes is read as JSON carries it.
    const dated = report.validate({ city: "Oslo", celsius: -3, at: new Date("2026-01-02T00:00:00Z") });
    expect(dated.ok && dated.value.at.toISOString()).toBe("2026-01-02T00:00:00.000Z");
  });

  it("reports every problem with its path and one message listing them", () => {
    const check = report.validate({ city: "", celsius: "warm", at: "2026-02-31T10:00:00Z", wind: 3 });
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.issues.map((i) => [i.code, i.path])).toEqual([
      ["unexpected_key", "/wind"],
      ["invalid_value", "/city"],
      ["invalid_type", "/celsius"],
    ]);
    expect(check.message).toBe(
      [
        'The value does not match the schema "Report":',
        '- unexpected key "wind"',
        '- /city: must have at least 1 character, got "" (a string)',
        '- /celsius: expected number, got "warm" (a string)',
        "Expected object.",
      ].join("\n"),
    );
    // A date-time string that names no real day is refused once the rest fits.
    const day = report.validate({ city: "Rome", celsius: 20, at: "2026-02-31T10:00:00Z" });
    expect(day.ok ? [] : day.issues.map((i) => i.path)).toEqual(["/at"]);
  });

  it("validates any root, not only objects", () => {
    const list = schema<number[]>(
      undefined,
      specOf({ type: "array", items: { type: "integer" }, maxItems: 2 }, { name: "answer" }),
    );
    expect(list.validate(["1", 2])).toEqual({ ok: true, value: [1, 2], repairs: [expect.anything()] });
    const wrong = list.validate([1, 2.5, 3]);
    expect(wrong.ok ? [] : wrong.issues.map((i) => i.path)).toEqual(["", "/1"]);
  });

  it("uses the compiler's generated check when the spec has one, and Ajv's reading of the same schema otherwise", () => {
    const seen: unknown[] = [];
    const validator = () => {
      const check = (value: unknown) => {
        seen.push(value);
        return typeof value === "string" && value.length <= 3;
      };
      return check;
    };
    const short = schema<string>(undefined, specOf({ type: "string", maxLength: 3 }, { name: "short", validator }));
    expect(short.validate("abc").ok).toBe(true);
    expect(seen).toEqual(["abc"]);
    // Rejected by the generated check; with no collector, Ajv explains why.
    const long = short.validate("abcd");
    expect(long.ok ? "" : long.message).toContain("must have at most 3 characters");
  });
});

describe("schema<T>() with the compiler's reader (check and frozen copy in one pass)", () => {
  /** A generated validator for `{ n: number }` whose reader counts its calls and returns its own copy. */
  function counted(json: JsonSchemaOf) {
    const reads: unknown[] = [];
    const validator = () => {
      const fits = (value: unknown) =>
        typeof value === "object" && value !== null && typeof (value as { n?: unknown }).n === "number";
      const check = (value: unknown) => fits(value);
      check.read = (value: unknown) => {
        reads.push(value);
        return fits(value) ? Object.freeze({ n: (value as { n: number }).n }) : false;
      };
      return check;
    };
    return { reads, counter: schema<{ n: number }>(undefined, specOf(json, { name: "counter", validator })) };
  }
  const N = { type: "object", properties: { n: { type: "number" } }, required: ["n"], additionalProperties: false };

  it("takes the reader's frozen copy of a value that fits, with no repairs", () => {
    const { reads, counter } = counted(N);
    const mine = { n: 1 };
    const check = counter.validate(mine);
    expect(check).toEqual({ ok: true, value: { n: 1 }, repairs: [] });
    expect(reads).toEqual([mine]);
    expect(check.ok && Object.isFrozen(check.value) && check.value !== mine).toBe(true);
    expect(Object.isFrozen(mine)).toBe(false);
  });

  it("repairs and reports what the reader refused, as without it", () => {
    const { reads, counter } = counted(N);
    expect(counter.validate({ n: "2" })).toMatchObject({ ok: true, value: { n: 2 }, repairs: [expect.anything()] });
    expect(reads).toHaveLength(1);
    const wrong = counter.validate({ n: "two" });
    expect(wrong.ok ? "" : wrong.message).toContain('/n: expected number, got "two"');
  });

  it("still revives the dates of a schema that has them, from the reader's copy", () => {
    const dated = {
      ...N,
      properties: { ...N.properties, at: { type: "string", format: "date-time", "x-toolwright-date": true } },
    };
    const reads: unknown[] = [];
    const validator = () => {
      const check = (_value: unknown) => true;
      check.read = (value: unknown) => {
        reads.push(value);
        return Object.freeze({ ...(value as object) });
      };
      return check;
    };
    const at = schema<{ n: number; at: Date }>(undefined, specOf(dated, { name: "dated", validator }));
    const check = at.validate({ n: 1, at: "2026-03-01T09:30:00Z" });
    expect(check).toMatchObject({ ok: true, value: { n: 1, at: new Date("2026-03-01T09:30:00Z") } });
    expect(reads).toHaveLength(1);
    // A date-time the format allows but no calendar has is refused, reader or not.
    expect(at.validate({ n: 1, at: "2026-02-31T09:30:00Z" }).ok).toBe(false);
  });
});

describe("schema<T>() speaks Standard Schema V1 and Standard JSON Schema V1", () => {
  const report = schema<Report>(undefined, specOf(REPORT));

  it("is typed as both interfaces, with the type as its output", () => {
    expectTypeOf(report).toMatchTypeOf<StandardSchemaV1<unknown, Report>>();
    expectTypeOf(report).toMatchTypeOf<StandardJSONSchemaV1<unknown, Report>>();
    expectTypeOf<StandardSchemaV1.InferOutput<typeof report>>().toEqualTypeOf<Report>();
    expectTypeOf<StandardSchemaV1.InferInput<typeof report>>().toEqualTypeOf<{
      city: string;
      celsius: number;
      at: string;
      tags?: string[];
    }>();
    expectTypeOf(report).toMatchTypeOf<Schema<Report>>();
  });

  it("validates through ~standard with toolwright's messages and key paths", async () => {
    const standard = report["~standard"];
    expect([standard.version, standard.vendor]).toEqual([1, "toolwright"]);
    expect(await standard.validate({ city: "Lyon", celsius: 9, at: "2026-05-01T12:00:00+02:00" })).toEqual({
      value: { city: "Lyon", celsius: 9, at: new Date("2026-05-01T10:00:00Z") },
    });
    const nested = schema<{ rows: { n: number }[] }>(
      undefined,
      specOf(
        {
          type: "object",
          properties: {
            rows: {
              type: "array",
              items: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
            },
          },
          required: ["rows"],
        },
        { name: "rows" },
      ),
    );
    const result = await nested["~standard"].validate({ rows: [{ n: 1 }, { n: "x" }] });
    expect(result.issues).toEqual([
      { message: '/rows/1/n: expected number, got "x" (a string)', path: ["rows", 1, "n"] },
    ]);
  });

  it("gives its JSON Schema for draft-2020-12 without the runtime's own keyword, a fresh copy each time", () => {
    const converter = report["~standard"].jsonSchema;
    const first = converter.input({ target: "draft-2020-12" });
    expect(first).toEqual({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      ...REPORT,
      properties: { ...(REPORT.properties as object), at: { type: "string", format: "date-time" } },
    });
    expect(converter.output({ target: "draft-2020-12" })).toEqual(first);
    (first.required as string[]).push("tags");
    expect(REPORT.required).toEqual(["city", "celsius", "at"]);
    expect(converter.input({ target: "draft-07" }).$schema).toBe("http://json-schema.org/draft-07/schema#");
    expect(converter.input({ target: "openapi-3.0" }).$schema).toBeUndefined();
  });

  it("throws for a target it does not write, as the standard asks", () => {
    expect(() => report["~standard"].jsonSchema.input({ target: "draft-04" })).toThrow(
      '"Report" has no JSON Schema for target "draft-04": toolwright writes draft-2020-12, draft-07, openapi-3.0.',
    );
  });
});

describe("schema<T>() without a usable spec", () => {
  it("throws at once, naming the call site and how to make the build write the spec", () => {
    let error: unknown;
    try {
      schema<Report>();
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(SchemaDefinitionError);
    const { message } = error as Error;
    expect(message).toMatch(/^schema\(\) \(called .*schema\.test\.ts:\d+:\d+\) has no compiled spec/);
    expect(message).toContain('"transform": "@toolwright/compiler/transform"');
    expect(message).toContain('give the call a name (schema<Answer>({ name: "answer" }))');
  });

  it("repeats the build's errors when the build rejected the type", () => {
    const rejected = { $toolwrightRejected: 1, errors: ["src/a.ts:3:5: TW990003: a Map cannot be sent as JSON"] };
    expect(() => schema<Report>({ name: "r" }, rejected as unknown as CompiledSchema)).toThrow(
      /^schema\(\{ name: "r" \}\) was rejected by the build, which reported: src\/a\.ts:3:5: TW990003/,
    );
  });

  it("finds the spec a `toolwright gen` module registered under its name", () => {
    registerSchemas([{ name: "gen_report_test", spec: specOf(REPORT, { name: "gen_report_test" }) }]);
    const found = schema<Report>({ name: "gen_report_test" });
    expect(found.jsonSchema).toBe(REPORT);
    expect(() => schema<Report>({ name: "not_registered_test" })).toThrow(SchemaDefinitionError);
  });

  it("refuses a name providers would refuse", () => {
    expect(() => schema<Report>({ name: "a report" }, specOf(REPORT))).toThrow(
      'schema() at src/report.ts:4: the name "a report" is not one providers accept',
    );
  });
});
