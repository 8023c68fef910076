import fc from "fast-check";
import { type Tool, type ToolSpec, validateArguments } from "toolwright";
import { beforeAll, describe, expect, it } from "vitest";
// Not on the packages' public surfaces: the generator itself, for keywords no fixture
// produces, and the helpers the runtime hands every generated validator.
import { validatorSource } from "../../packages/compiler/src/validator/validator-source.js";
import { validatorHelpers } from "../../packages/runtime/src/validation/generated-helpers.js";
import {
  parameters as bookFlight,
  cases as malformedCalls,
} from "../../packages/runtime/test/validation/malformed-cases.js";
import { compileFixtures, type FixtureResult, fixtureCases, fixtureSamples } from "./compile-fixtures.js";
import { valuesFor } from "./schema-values.js";

// A rejected call's feedback built from the generated collectors must be the one Ajv's
// errors build, byte for byte, with the same verdict, arguments and repairs: the same
// schema object is checked once as a compiled tool (generated check and collectors) and
// once as a hand-written one (Ajv).

type Schema = Record<string, unknown>;

interface Case {
  readonly label: string;
  readonly schema: Schema;
  readonly validator: ToolSpec["validator"];
  readonly samples: readonly unknown[];
}

const cases = fixtureCases().filter((name) => !name.startsWith("err-"));
let compiled: Map<string, FixtureResult>;

function parametersOf(name: string): Case[] {
  const result = compiled.get(name);
  if (!result) throw new Error(`fixture ${name} was not compiled`);
  return (result.compiledSpecs as ToolSpec[]).map((spec, i) => ({
    label: `${name} #${i} ${spec.name}`,
    schema: spec.parameters as Schema,
    validator: spec.validator,
    samples: i === 0 ? fixtureSamples(name) : [],
  }));
}

/** Schemas using keywords the collectors cover but no fixture writes. */
const HAND_WRITTEN: Record<string, Schema> = {
  "allOf, bounds, multipleOf, lengths": {
    type: "object",
    properties: {
      n: { type: "number", allOf: [{ minimum: -40 }, { exclusiveMaximum: 90 }], multipleOf: 0.5 },
      m: { type: "integer", maximum: 5, exclusiveMinimum: 0 },
      s: { type: "string", minLength: 2, maxLength: 4, pattern: "^[a-z]+$" },
      d: { type: "string", format: "date" },
    },
    required: ["n"],
    additionalProperties: false,
  },
  "open object with patternProperties and a schema for the rest": {
    type: "object",
    properties: { id: { type: "string", format: "uuid" } },
    patternProperties: { "^x-": { type: "number" } },
    additionalProperties: { type: "boolean" },
    minProperties: 1,
    maxProperties: 3,
  },
  "closed tuple and key escapes": {
    type: "object",
    properties: {
      "a/b~c": { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }], items: false, minItems: 1 },
      constructor: { type: "object", properties: { k: { const: { x: [1] } } }, required: ["k", "toString"] },
    },
    required: ["a/b~c"],
    additionalProperties: false,
  },
  "nullable and a union of objects": {
    type: "object",
    properties: {
      shape: {
        anyOf: [
          {
            type: "object",
            properties: { kind: { const: "circle" }, r: { type: "number" } },
            required: ["kind", "r"],
            additionalProperties: false,
          },
          {
            type: "object",
            properties: { kind: { const: "square" }, side: { type: "number" } },
            required: ["kind", "side"],
            additionalProperties: false,
          },
        ],
      },
      value: { anyOf: [{ type: "string" }, { type: "array", items: { type: "number" } }] },
      note: { type: ["string", "null"] },
    },
    required: ["shape"],
    additionalProperties: false,
  },
};

/** Key spellings a model gets wrong: another case, a separator, a plural. */
function nearMiss(key: string, choice: number): string {
  if (choice % 3 === 0) return key.toUpperCase();
  if (choice % 3 === 1) return `${key}s`;
  return key.replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase();
}

/**
 * `value` with mistakes a model makes, chosen by `choices`: numbers and booleans sent as
 * strings (repairable), `null` for a key, a key dropped, misspelt or added.
 */
function mutate(value: unknown, choices: readonly number[], at = { i: 0 }, depth = 0): unknown {
  const choice = choices[at.i++ % choices.length] ?? 0;
  if (typeof value === "number") return choice === 0 ? String(value) : choice === 1 ? `${value}x` : value;
  if (typeof value === "boolean") return choice === 0 ? String(value) : value;
  if (typeof value !== "object" || value === null || depth > 8) return value;
  if (Array.isArray(value)) return value.map((item) => mutate(item, choices, at, depth + 1));
  const entries = Object.entries(value).map(([key, item]) => [key, mutate(item, choices, at, depth + 1)] as const);
  const [first] = entries;
  const out: Record<string, unknown> = {};
  entries.forEach(([key, item], i) => {
    const renamed = i === 0 && choice === 1 ? nearMiss(key, choices[at.i % choices.length] ?? 0) : key;
    if (i === 0 && choice === 2) return;
    Object.defineProperty(out, renamed, {
      value: i === 0 && choice === 3 ? null : item,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  });
  if (choice === 4 || (choice === 5 && !first)) out.extra = "x";
  return out;
}

/** A compiled tool (generated check and collectors) and a hand-written one (Ajv) of the same schema object. */
function toolsOf({ schema, validator }: Case): [Tool, Tool] {
  const name = "probe";
  const spec = { parameters: schema, validator } as unknown as ToolSpec;
  return [{ name, parameters: schema, spec } as unknown as Tool, { name, parameters: schema } as unknown as Tool];
}

/** The same answer from both paths on the samples and on random, mostly wrong, values. */
function expectSameFeedback(schemaCase: Case): void {
  if (!schemaCase.validator) return;
  const [generated, ajv] = toolsOf(schemaCase);
  let rejected = 0;
  const agree = (value: unknown) => {
    // Each path gets its own text: validation freezes what it parsed.
    const text = JSON.stringify(value);
    const a = validateArguments(generated, JSON.parse(text));
    const b = validateArguments(ajv, JSON.parse(text));
    if (!b.ok) rejected++;
    const shown = (check: typeof a) =>
      check.ok
        ? { ok: true, args: check.args, repairs: check.repairs }
        : { ok: false, message: check.error.message, issues: check.error.issues };
    expect({ label: schemaCase.label, value: text, ...shown(a) }).toEqual({
      label: schemaCase.label,
      value: text,
      ...shown(b),
    });
  };
  for (const sample of schemaCase.samples) agree(sample);
  fc.assert(
    fc.property(
      valuesFor(schemaCase.schema, schemaCase.schema),
      fc.array(fc.nat({ max: 9 }), { minLength: 1, maxLength: 12 }),
      (value, choices) => agree(mutate(value, choices)),
    ),
    { numRuns: 300, seed: 14 },
  );
  // Random values that were all accepted would compare no feedback at all.
  expect({ label: schemaCase.label, rejected: rejected > 0 }).toEqual({ label: schemaCase.label, rejected: true });
}

beforeAll(() => {
  compiled = compileFixtures(cases);
});

describe("feedback from the generated collectors equals Ajv's", () => {
  it("covers nearly every fixture's parameters", () => {
    const all = cases.flatMap(parametersOf);
    const factories = all.filter((c) => c.validator);
    const without = factories
      .filter((c) => c.validator && !c.validator(validatorHelpers, c.schema).issues)
      .map((c) => c.label);
    // Each schema left out keeps Ajv for its feedback (here: a member schema `false`, the
    // key an open object must not have, and `uniqueItems`, whose two named items depend on
    // Ajv's search); the list is pinned so a regression shows.
    expect(without).toEqual(["no-value-members #0 fileNote", "tsdoc-constraints #0 register"]);
    expect(factories.length).toBeGreaterThan(70);
  });

  it.each(cases)("%s", (name) => {
    for (const schemaCase of parametersOf(name)) expectSameFeedback(schemaCase);
  });

  it("gives every malformed call of the runtime's table the same feedback", () => {
    const source = validatorSource(bookFlight);
    if (!source) throw new Error("book_flight's parameters are outside the generator's subset");
    const validator = new Function(`return (${source});`)() as ToolSpec["validator"];
    const [generated, ajv] = toolsOf({ label: "book_flight", schema: bookFlight, validator, samples: [] });
    expect(validator?.(validatorHelpers, bookFlight).issues).toBeTypeOf("function");
    for (const { name, raw } of malformedCalls) {
      const a = validateArguments(generated, raw);
      const b = validateArguments(ajv, raw);
      expect({ name, message: a.ok ? "accepted" : a.error.message }).toEqual({
        name,
        message: b.ok ? "accepted" : b.error.message,
      });
    }
  });

  it.each(Object.keys(HAND_WRITTEN))("hand-written: %s", (label) => {
    const schema = HAND_WRITTEN[label] as Schema;
    const source = validatorSource(schema);
    if (!source) throw new Error(`${label} is outside the generator's subset`);
    expect(source).toContain(".issues=");
    const validator = new Function(`return (${source});`)() as ToolSpec["validator"];
    expectSameFeedback({ label, schema, validator, samples: [] });
  });
});
