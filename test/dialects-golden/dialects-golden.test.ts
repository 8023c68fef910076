import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import { type Tool, validateArguments } from "toolwright";
import { type DialectName, dialects } from "toolwright/dialects";
import { describe, expect, it } from "vitest";
import { checkAnthropic, checkAnthropicStrict } from "./rules/anthropic.js";
import { checkGeminiJsonSchema, checkGeminiLegacy } from "./rules/gemini.js";
import { checkMcp } from "./rules/mcp.js";
import { checkOpenAiRoot, checkOpenAiStrict } from "./rules/openai.js";

type Schema = Record<string, unknown>;

/** One rule-checker per target, written from the provider sheet, not from the dialect code. */
const RULES: Record<DialectName, (schema: Schema) => string[]> = {
  // What the OpenAI providers send: strict when it fits (which also passes the root rule), else non-strict.
  openai: checkOpenAiRoot,
  "openai-strict": checkOpenAiStrict,
  "openai-nonstrict": checkOpenAiRoot,
  "anthropic-strict": checkAnthropicStrict,
  anthropic: checkAnthropic,
  gemini: checkGeminiJsonSchema,
  "gemini-legacy": checkGeminiLegacy,
  mcp: checkMcp,
};
/** Dialects whose output is JSON Schema, so the fixture's valid samples can be checked against it. */
const JSON_SCHEMA_DIALECTS: readonly DialectName[] = [
  "openai-nonstrict",
  "anthropic-strict",
  "anthropic",
  "gemini",
  "mcp",
];

const FIXTURES = fileURLToPath(new URL("../fixtures/", import.meta.url));

interface Case {
  readonly id: string;
  readonly parameters: Schema;
  /** The fixture's valid samples, on the schema they are written for. */
  readonly samples: readonly Schema[];
}

interface Expected {
  readonly specs: readonly { name: string; parameters: Schema }[];
  readonly schemas?: readonly { name: string; schema: Schema }[];
}

/**
 * Every tool's parameters and every schema<T>() schema of every compiler fixture, read at test
 * time so new fixtures are covered at once. A fixture's valid.json holds values of its first
 * schema<T>() schema, else of its first tool's parameters (as the fixture suite reads it).
 */
function cases(): Case[] {
  const out: Case[] = [];
  for (const dir of readdirSync(FIXTURES).sort()) {
    const expected = path.join(FIXTURES, dir, "expected.json");
    if (!existsSync(expected)) continue;
    const { specs, schemas = [] } = JSON.parse(readFileSync(expected, "utf8")) as Expected;
    const validFile = path.join(FIXTURES, dir, "valid.json");
    const samples = existsSync(validFile) ? (JSON.parse(readFileSync(validFile, "utf8")) as Schema[]) : [];
    const all = [
      ...schemas.map((s) => ({ id: `${dir}/schema ${s.name}`, parameters: s.schema })),
      ...specs.map((spec) => ({ id: `${dir}/${spec.name}`, parameters: spec.parameters })),
    ];
    all.forEach((c, i) => {
      out.push({ ...c, samples: i === 0 ? samples : [] });
    });
  }
  return out;
}

const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true, logger: false });

function resolveRef(schema: Schema, root: Schema): Schema {
  const ref = schema.$ref;
  if (typeof ref !== "string") return schema;
  const name = /^#\/\$defs\/(.+)$/.exec(ref)?.[1];
  return name ? ((root.$defs as Record<string, Schema>)[name] ?? schema) : root;
}

/** What a model in strict mode sends: every optional key it left out comes as `null`. */
function withStrictNulls(value: unknown, schema: Schema, root: Schema): unknown {
  const s = resolveRef(schema, root);
  if (Array.isArray(value) && s.items && typeof s.items === "object") {
    return value.map((v) => withStrictNulls(v, s.items as Schema, root));
  }
  if (typeof value !== "object" || value === null || Array.isArray(value) || !s.properties) return value;
  const props = s.properties as Record<string, Schema>;
  const out: Record<string, unknown> = { ...(value as Schema) };
  for (const [key, sub] of Object.entries(props)) {
    out[key] = key in out ? withStrictNulls(out[key], sub, root) : null;
  }
  return out;
}

/**
 * `args` with each Date as the sample's text when that text names the same instant (a
 * calendar day is its UTC midnight; `...:00Z` and `...:00.000Z` are one moment), else as its
 * ISO text, so a Date revived from a different moment differs from the sample.
 */
function asSampled(args: unknown, sample: unknown): unknown {
  if (args instanceof Date) {
    return typeof sample === "string" && Date.parse(sample) === args.getTime() ? sample : args.toISOString();
  }
  if (Array.isArray(args)) return args.map((v, i) => asSampled(v, Array.isArray(sample) ? sample[i] : undefined));
  if (typeof args !== "object" || args === null) return args;
  const sampled = typeof sample === "object" && sample !== null ? (sample as Schema) : {};
  return Object.fromEntries(Object.entries(args).map(([key, v]) => [key, asSampled(v, sampled[key])]));
}

function toolWith(parameters: Schema): Tool {
  return { name: "golden", description: "A fixture schema.", parameters, flags: {}, execute: () => "ok" };
}

const all = cases();

describe("dialect goldens: every compiler fixture schema through every dialect", () => {
  it("reads the compiler's fixture suite", () => {
    expect(all.length).toBeGreaterThanOrEqual(40);
  });

  for (const name of Object.keys(RULES) as DialectName[]) {
    it(`${name}: what the dialect makes passes the sheet's rules, unless the dialect reports it cannot`, () => {
      const refused: string[] = [];
      for (const c of all) {
        const { schema, notes } = dialects[name].toDialect(c.parameters);
        const errors = notes.filter((n) => n.severity === "error");
        expect(dialects[name].check(c.parameters).filter((n) => n.severity === "error")).toEqual(errors);
        if (errors.length > 0) {
          refused.push(c.id);
          continue;
        }
        expect({ id: c.id, problems: RULES[name](schema as Schema) }).toEqual({ id: c.id, problems: [] });
      }
      // Refusals are rare and explained: Records in strict modes, recursion in the legacy Gemini subset.
      expect(refused.length).toBeLessThan(all.length / 4);
    });
  }

  it("the rule-checkers are not vacuous: canonical schemas break the strict and legacy rules", () => {
    const broken = (check: (s: Schema) => string[]) => all.filter((c) => check(c.parameters).length > 0).length;
    expect(broken(checkOpenAiStrict)).toBeGreaterThan(5);
    expect(broken(checkAnthropicStrict)).toBeGreaterThan(5);
    expect(broken(checkGeminiLegacy)).toBe(all.length);
    expect(broken(checkGeminiJsonSchema)).toBeGreaterThan(0);
  });

  it("valid samples still validate after each JSON Schema dialect (constraints only move into descriptions)", () => {
    let checked = 0;
    for (const c of all.filter((x) => x.samples.length > 0)) {
      for (const name of JSON_SCHEMA_DIALECTS) {
        const { schema, notes } = dialects[name].toDialect(c.parameters);
        if (notes.some((n) => n.severity === "error")) continue;
        const validate = ajv.compile(schema);
        for (const sample of c.samples) {
          expect({ id: c.id, name, ok: validate(sample), errors: validate.errors ?? null }).toMatchObject({ ok: true });
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  it("OpenAI strict: the nulls a strict model sends for optional keys validate, and are dropped before validation", () => {
    let checked = 0;
    for (const c of all.filter((x) => x.samples.length > 0)) {
      const { schema, notes } = dialects["openai-strict"].toDialect(c.parameters);
      if (notes.some((n) => n.severity === "error")) continue;
      const validate = ajv.compile(schema);
      for (const sample of c.samples) {
        const sent = withStrictNulls(sample, c.parameters, c.parameters);
        expect({ id: c.id, ok: validate(sent), errors: validate.errors ?? null }).toMatchObject({ ok: true });
        const check = validateArguments(toolWith(c.parameters), JSON.stringify(sent));
        expect({ id: c.id, ok: check.ok }).toEqual({ id: c.id, ok: true });
        // A Date member arrives as a Date of the instant the sample's text names.
        if (check.ok) expect(asSampled(check.args, sample)).toEqual(sample);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });
});
