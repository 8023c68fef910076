import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { jsonSchemaFor } from "../../src/standard/json-schema.js";

// The targets of Standard JSON Schema, rule by rule: what each canonical (2020-12) construct
// becomes, checked by Ajv in that draft's own strict mode, and accepting what 2020-12 accepts.

const TREE = {
  type: "object",
  properties: {
    name: { type: "string" },
    children: { type: "array", items: { $ref: "#/$defs/Node" } },
  },
  required: ["name", "children"],
  additionalProperties: false,
  $defs: {
    Node: {
      type: "object",
      properties: {
        label: { type: "string" },
        kids: { type: "array", items: { $ref: "#/$defs/Node" } },
        parent: { $ref: "#/$defs/Node", description: "Up one level." },
      },
      required: ["label"],
      additionalProperties: false,
    },
  },
};

const TUPLE = {
  type: "object",
  properties: {
    at: { type: "array", prefixItems: [{ type: "number" }, { type: "number" }], items: false, minItems: 2 },
    rest: { type: "array", prefixItems: [{ type: "string" }], items: { type: "integer" }, minItems: 1 },
  },
  required: ["at"],
  additionalProperties: false,
};

const SCALARS = {
  type: "object",
  properties: {
    maybe: { type: ["string", "null"] },
    kind: { type: ["string", "number", "null"], enum: ["a", 1, null] },
    exact: { const: "yes" },
    ratio: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 },
    either: {
      anyOf: [{ type: "string" }, { type: "object", properties: { x: { type: "number" } } }, { type: "null" }],
    },
    nested: { anyOf: [{ type: "object", properties: { y: { type: "string" } } }, { type: "null" }] },
    when: { type: "string", format: "date-time", "x-toolwright-date": true, examples: ["2026-01-01T00:00:00Z"] },
    none: { type: "null" },
    list: { type: "array" },
    empty: { type: "array", items: false },
  },
  additionalProperties: false,
};

// strictSchema: a keyword draft-07 does not know (prefixItems, say) fails the compile. Ajv's
// other strict checks are style (a tuple without maxItems, a type union), not the draft's rules.
const draft07 = new Ajv({ strictSchema: true, strictTuples: false, strictTypes: false, validateFormats: false });
const canonical = new Ajv2020({ strict: false, validateFormats: false });

function both(schema: Record<string, unknown>, values: readonly unknown[]): void {
  const converted = jsonSchemaFor(schema, "draft-07", "test");
  expect(draft07.validateSchema(converted), JSON.stringify(draft07.errors)).toBe(true);
  const check07 = draft07.compile(converted);
  const check2020 = canonical.compile(schema);
  for (const value of values) expect(check07(value), JSON.stringify(value)).toBe(check2020(value));
}

describe("draft-07", () => {
  it("writes $defs as definitions, a $ref beside other keywords inside an allOf", () => {
    const out = jsonSchemaFor(TREE, "draft-07", "tree");
    expect(out.definitions).toBeDefined();
    expect(out.$defs).toBeUndefined();
    expect(JSON.stringify(out)).not.toContain("$defs");
    expect((out.definitions as { Node: { properties: { parent: unknown } } }).Node.properties.parent).toEqual({
      description: "Up one level.",
      allOf: [{ $ref: "#/definitions/Node" }],
    });
    both(TREE, [
      { name: "a", children: [] },
      { name: "a", children: [{ label: "x", kids: [{ label: "y" }], parent: { label: "z" } }] },
      { name: "a", children: [{ label: 1 }] },
      { name: "a", children: [{ label: "x", parent: { label: 2 } }] },
      { name: "a", children: [], extra: true },
    ]);
  });

  it("writes tuples as items arrays with additionalItems", () => {
    const out = jsonSchemaFor(TUPLE, "draft-07", "tuple") as { properties: Record<string, unknown> };
    expect(out.properties.at).toEqual({
      type: "array",
      items: [{ type: "number" }, { type: "number" }],
      additionalItems: false,
      minItems: 2,
    });
    both(TUPLE, [
      { at: [1, 2] },
      { at: [1, 2, 3] },
      { at: [1, "2"] },
      { at: [1] },
      { at: [1, 2], rest: ["a", 1, 2] },
      { at: [1, 2], rest: ["a", 1.5] },
      { at: [1, 2], rest: [1] },
    ]);
  });

  it("keeps what draft-07 shares with 2020-12 as it is", () => {
    both(SCALARS, [
      {},
      { maybe: null, kind: 1, exact: "yes", ratio: 0.5, either: { x: 1 }, nested: null, none: null, empty: [] },
      { kind: 2 },
      { exact: "no" },
      { ratio: 0 },
      { ratio: 1 },
      { either: 3 },
      { nested: { y: 1 } },
      { none: "x" },
      { empty: [1] },
      { unknown: 1 },
    ]);
  });

  it("throws for a keyword draft-07 has no form for, naming it and where", () => {
    expect(() =>
      jsonSchemaFor({ type: "object", properties: { a: { unevaluatedProperties: false } } }, "draft-07", "Answer"),
    ).toThrow('"Answer": JSON Schema draft-07 has no "unevaluatedProperties" (at /properties/a)');
  });
});

describe("openapi-3.0", () => {
  it("spells null as nullable beside a type, const as an enum, exclusive bounds as booleans", () => {
    const out = jsonSchemaFor(SCALARS, "openapi-3.0", "scalars") as { properties: Record<string, unknown> };
    expect(out.properties).toEqual({
      maybe: { type: "string", nullable: true },
      kind: { enum: ["a", 1, null] },
      exact: { enum: ["yes"] },
      ratio: { type: "number", minimum: 0, exclusiveMinimum: true, maximum: 1, exclusiveMaximum: true },
      either: {
        anyOf: [
          { type: "string" },
          { type: "object", properties: { x: { type: "number" } } },
          { type: "string", nullable: true, enum: [null] },
        ],
      },
      nested: { type: "object", properties: { y: { type: "string" } }, nullable: true },
      when: { type: "string", format: "date-time", example: "2026-01-01T00:00:00Z" },
      none: { type: "string", nullable: true, enum: [null] },
      list: { type: "array", items: {} },
      empty: { type: "array", items: {}, maxItems: 0 },
    });
  });

  it("writes a boolean subschema as a Schema Object (false as not {}), except additionalProperties, where 3.0 takes one", () => {
    const labels = {
      type: "object",
      properties: { internal: false, any: true, either: { anyOf: [false, { type: "string" }] }, never: { not: true } },
      additionalProperties: false,
    };
    const out = jsonSchemaFor(labels, "openapi-3.0", "labels");
    expect(out).toEqual({
      type: "object",
      properties: {
        internal: { not: {} },
        any: {},
        either: { anyOf: [{ not: {} }, { type: "string" }] },
        never: { not: {} },
      },
      additionalProperties: false,
    });
    const validate = new Ajv({ strict: false }).compile(out);
    expect([{}, { internal: 1 }, { either: "x" }, { either: 1 }, { never: null }].map((v) => validate(v))).toEqual([
      true,
      false,
      true,
      false,
      false,
    ]);
  });

  it("inlines definitions that do not recurse", () => {
    const shared = {
      type: "object",
      properties: { home: { $ref: "#/$defs/Place" }, work: { $ref: "#/$defs/Place", description: "Office." } },
      $defs: { Place: { type: "object", properties: { city: { type: "string" } } } },
    };
    expect(jsonSchemaFor(shared, "openapi-3.0", "places")).toEqual({
      type: "object",
      properties: {
        home: { type: "object", properties: { city: { type: "string" } } },
        work: { type: "object", properties: { city: { type: "string" } }, description: "Office." },
      },
    });
  });

  it("throws for what 3.0 cannot say instead of writing a schema that accepts more", () => {
    expect(() => jsonSchemaFor(TREE, "openapi-3.0", "tree")).toThrow(
      '"tree": an OpenAPI 3.0 Schema Object cannot express the recursive or external reference "#/$defs/Node" without a components section (at /properties/children/items/properties/kids/items)',
    );
    expect(() => jsonSchemaFor(TUPLE, "openapi-3.0", "tuple")).toThrow(
      'cannot express "prefixItems" (at /properties/at)',
    );
    expect(() => jsonSchemaFor({ type: "object", patternProperties: { "^x-": {} } }, "openapi-3.0", "p")).toThrow(
      '"patternProperties"',
    );
  });
});
