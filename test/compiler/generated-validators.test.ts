import { Ajv2020 } from "ajv/dist/2020.js";
import formatsPlugin from "ajv-formats";
import fc from "fast-check";
import type { SchemaSpec, ToolSpec } from "toolwright";
import { beforeAll, describe, expect, it } from "vitest";
// Not on the packages' public surfaces: the generator itself, for keywords no fixture
// produces, and the helpers the runtime hands every generated validator.
import { validatorSource } from "../../packages/compiler/src/validator/validator-source.js";
import { validatorHelpers } from "../../packages/runtime/src/validation/generated-helpers.js";
import { compileFixtures, type FixtureResult, fixtureCases, fixtureSamples } from "./compile-fixtures.js";
import { valuesFor } from "./schema-values.js";

// The generated validators and Ajv (the reference: JSON Schema 2020-12, ajv-formats in the
// "fast" mode the runtime uses, non-finite numbers refused) must accept and reject the same
// values, for every schema the compiler writes for the fixtures.
const ajv = new Ajv2020({ strict: false, strictNumbers: true, ownProperties: true, validateSchema: false });
formatsPlugin.default(ajv, { mode: "fast" });

type GeneratedValidator = NonNullable<ToolSpec["validator"]>;

interface Case {
  readonly label: string;
  readonly schema: Record<string, unknown>;
  readonly validator: GeneratedValidator | undefined;
  readonly samples: readonly unknown[];
}

const cases = fixtureCases().filter((name) => !name.startsWith("err-"));
let compiled: Map<string, FixtureResult>;

/**
 * Every schema of every spec of a fixture, each with its generated validator: parameters and
 * output schemas of tools, and the schemas of `schema<T>()` calls (which get the samples, when the fixture has some).
 */
function schemasOf(name: string): Case[] {
  const result = compiled.get(name);
  if (!result) throw new Error(`fixture ${name} was not compiled`);
  const samples = fixtureSamples(name);
  const answers = (result.compiledSchemas as SchemaSpec[]).map((spec, i) => ({
    label: `${name} schema<T>() #${i} ${spec.name}`,
    schema: spec.schema as Record<string, unknown>,
    validator: spec.validator,
    samples: i === 0 ? samples : [],
  }));
  const tools = (result.compiledSpecs as ToolSpec[]).flatMap((spec, i) => [
    {
      label: `${name} #${i} ${spec.name} parameters`,
      schema: spec.parameters as Record<string, unknown>,
      validator: spec.validator,
      samples: i === 0 && answers.length === 0 ? samples : [],
    },
    ...(spec.outputSchema
      ? [
          {
            label: `${name} #${i} ${spec.name} outputSchema`,
            schema: spec.outputSchema as Record<string, unknown>,
            validator: spec.outputValidator,
            samples: [],
          },
        ]
      : []),
  ]);
  return [...answers, ...tools];
}

/** Schemas using what the subset covers but no fixture writes. */
const HAND_WRITTEN: Record<string, Record<string, unknown>> = {
  "oneOf, not, allOf": {
    oneOf: [
      { type: "integer", multipleOf: 3 },
      { type: "integer", multipleOf: 5 },
    ],
    allOf: [{ minimum: -40 }, { not: { const: 15 } }],
  },
  "open object with patternProperties and a schema for the rest": {
    type: "object",
    properties: { id: { type: "string", format: "uuid" } },
    patternProperties: { "^x-": { type: "number" } },
    additionalProperties: { type: "boolean" },
    minProperties: 1,
    maxProperties: 3,
  },
  "closed tuple and unique items": {
    type: "array",
    prefixItems: [
      { type: "string", format: "date" },
      { type: "string", format: "time" },
    ],
    items: false,
    uniqueItems: true,
  },
  "object and array constants, a long enum": {
    type: "object",
    properties: {
      point: { const: { x: 1, y: [2, 3] } },
      level: { enum: ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", 1, null, [1]] },
      list: { type: "array", items: { type: "object", properties: { k: { type: "string" } } }, uniqueItems: true },
    },
    required: ["point"],
  },
  "code-point lengths": {
    type: "object",
    properties: {
      short: { type: "string", minLength: 2, maxLength: 3 },
      key: { type: "string", pattern: "^\\p{L}+$" },
      __proto__: { type: "string" },
      constructor: { type: "integer", exclusiveMinimum: 0 },
    },
    required: ["short"],
    additionalProperties: false,
  },
  // The closed object with no properties accepts only {}: its unknown-key check is all there is.
  "a closed empty object in an untagged union, which no reader reads": {
    anyOf: [
      { type: "object", properties: {}, additionalProperties: false },
      {
        type: "object",
        properties: { tags: { type: "array", items: { type: "string" } } },
        required: ["tags"],
        additionalProperties: false,
      },
    ],
  },
  "a closed empty object in a union of kinds, which the reader reads": {
    type: "object",
    properties: { v: { anyOf: [{ type: "string" }, { type: "object", properties: {}, additionalProperties: false }] } },
    required: ["v"],
    additionalProperties: false,
  },
  "root recursion": {
    type: "object",
    properties: { children: { type: "array", items: { $ref: "#" }, maxItems: 2 }, name: { type: ["string", "null"] } },
    required: ["name"],
    additionalProperties: false,
  },
};

beforeAll(() => {
  compiled = compileFixtures(cases);
});

describe("generated validators agree with Ajv", () => {
  it("cover nearly every schema the fixtures produce", () => {
    const all = cases.flatMap(schemasOf);
    const without = all.filter((c) => !c.validator).map((c) => c.label);
    // Each schema left out falls back to Ajv; the list is pinned so a regression shows.
    expect(without).toEqual([]);
    expect(all.length).toBeGreaterThan(80);
  });

  it.each(cases)("%s", (name) => {
    for (const schemaCase of schemasOf(name)) expectAgreement(schemaCase);
  });

  it.each(Object.keys(HAND_WRITTEN))("hand-written: %s", (label) => {
    const schema = HAND_WRITTEN[label] as Record<string, unknown>;
    const source = validatorSource(schema);
    if (!source) throw new Error(`${label} is outside the generator's subset`);
    const validator = new Function(`return (${source});`)() as GeneratedValidator;
    expectAgreement({ label, schema, validator, samples: [] });
  });

  it("checks the closed empty object both by the check alone and by the reader", () => {
    const withReader = (label: string) =>
      validatorSource(HAND_WRITTEN[label] as Record<string, unknown>)?.includes(".read=");
    expect(withReader("a closed empty object in an untagged union, which no reader reads")).toBe(false);
    expect(withReader("a closed empty object in a union of kinds, which the reader reads")).toBe(true);
  });

  it("leaves schemas outside the subset to Ajv", () => {
    expect(validatorSource({ type: "string", format: "idn-hostname" })).toBeUndefined();
    expect(validatorSource({ type: "integer", format: "int32" })).toBeUndefined();
    expect(validatorSource({ type: "array", contains: { type: "string" } })).toBeUndefined();
    expect(validatorSource({ $ref: "#/definitions/A", definitions: { A: {} } })).toBeUndefined();
    expect(validatorSource({ type: "object", properties: { a: { $defs: {} } } })).toBeUndefined();
    expect(validatorSource({ type: [] })).toBeUndefined();
    expect(validatorSource({ type: "string", pattern: "(" })).toBeUndefined();
  });
});

/** Both verdicts on the fixture's samples and on random values aimed at the schema, and both seen. */
function expectAgreement({ label, schema, validator, samples }: Case): void {
  if (!validator) return;
  const generated = validator(validatorHelpers, schema);
  const reference = ajv.compile(schema);
  const seen = new Set<boolean>();
  const agree = (value: unknown) => {
    const expected = reference(value);
    seen.add(expected);
    if (generated(value) !== expected) {
      throw new Error(`${label}: generated ${!expected}, Ajv ${expected} for ${JSON.stringify(value)}`);
    }
  };
  for (const sample of samples) agree(sample);
  fc.assert(
    fc.property(valuesFor(schema, schema), (value) => agree(value)),
    { numRuns: 400, seed: 14 },
  );
  // Random values that all landed on one side would test half a validator.
  expect({ label, verdicts: [...seen].sort() }).toEqual({ label, verdicts: [false, true] });
}
