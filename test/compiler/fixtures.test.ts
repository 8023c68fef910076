import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import formatsPlugin from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileFixtures, FIXTURES, type FixtureResult, fixtureCases, pluginOptionsOf } from "./compile-fixtures.js";

// Every folder under test/fixtures is a case: input.ts (+ other .ts files it imports),
// expected.json (the emitted specs and toolwright diagnostics), optional valid.json /
// invalid.json (values the first schema<T>() spec's schema, else the first tool's
// parameters, must accept / reject, formats included) and
// options.json (plugin options). Cases named err-* must produce diagnostics.
const cases = fixtureCases();
const update = process.env.UPDATE_FIXTURES === "1";
let results: Map<string, FixtureResult>;

beforeAll(() => {
  results = compileFixtures(cases);
});

afterAll(() => {
  // Regenerated goldens are written in the repository's Biome style, so `biome ci` stays clean.
  if (update) execFileSync(path.resolve(FIXTURES, "../../node_modules/.bin/biome"), ["format", "--write", FIXTURES]);
});

function readJson(file: string): unknown {
  return JSON.parse(readFileSync(file, "utf8"));
}

/** The schema a case's samples are checked against: its first `schema<T>()`'s, else its first tool's parameters. */
function parametersOf(result: FixtureResult): Record<string, unknown> {
  const [first] = result.specs as { parameters: Record<string, unknown> }[];
  const [schema] = result.schemas as { schema: Record<string, unknown> }[];
  const checked = schema?.schema ?? first?.parameters;
  if (!checked) throw new Error("the case has samples but emitted no spec");
  return checked;
}

describe("a fixture's options.json", () => {
  it("fails the run loudly when malformed, instead of compiling the case with no options", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "toolwright-options-"));
    try {
      expect(pluginOptionsOf(dir)).toEqual({});
      writeFileSync(path.join(dir, "options.json"), '{ "requireAnnotations": true, }');
      expect(() => pluginOptionsOf(dir)).toThrow(/options\.json is not valid JSON \(.+\); fix it, or delete it/);
      writeFileSync(path.join(dir, "options.json"), "[true]");
      expect(() => pluginOptionsOf(dir)).toThrow(/options\.json must hold one JSON object of plugin options/);
      writeFileSync(path.join(dir, "options.json"), '{ "requireAnnotations": true }');
      expect(pluginOptionsOf(dir)).toEqual({ requireAnnotations: true });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("compiler fixtures", () => {
  it("has enough cases", () => {
    expect(cases.filter((c) => !c.startsWith("err-")).length).toBeGreaterThanOrEqual(40);
    expect(cases.filter((c) => c.startsWith("err-")).length).toBeGreaterThanOrEqual(10);
  });

  it.each(cases)("%s", (name) => {
    const result = results.get(name);
    if (!result) throw new Error(`fixture ${name} was not compiled`);
    const actual = {
      specs: result.specs,
      ...(result.schemas.length > 0 ? { schemas: result.schemas } : {}),
      diagnostics: result.diagnostics,
      ...(result.typeErrors.length > 0 ? { typeErrors: result.typeErrors } : {}),
    };
    const expectedFile = path.join(FIXTURES, name, "expected.json");
    if (update) writeFileSync(expectedFile, `${JSON.stringify(actual, null, 2)}\n`);
    if (!existsSync(expectedFile)) {
      throw new Error(`fixture ${name} has no expected.json: run with UPDATE_FIXTURES=1, then review the golden`);
    }
    expect(actual).toEqual(readJson(expectedFile));

    if (name.startsWith("err-") || name.startsWith("warn-")) expect(result.diagnostics.length).toBeGreaterThan(0);
    else expect(result.diagnostics).toEqual([]);

    // Formats checked as the runtime checks them (ajv-formats, "fast" mode).
    const ajv = new Ajv2020({ strict: false });
    formatsPlugin.default(ajv, { mode: "fast" });
    for (const [file, valid] of [
      ["valid.json", true],
      ["invalid.json", false],
    ] as const) {
      const samplesFile = path.join(FIXTURES, name, file);
      if (!existsSync(samplesFile)) continue;
      const validate = ajv.compile(parametersOf(result));
      for (const sample of readJson(samplesFile) as unknown[]) {
        expect({ sample, valid: validate(sample) }).toEqual({ sample, valid });
      }
    }
  });
});
