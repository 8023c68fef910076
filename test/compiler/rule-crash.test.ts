import { createRequire } from "node:module";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { compileFixtures, type FixtureResult, fixtureCases } from "./compile-fixtures.js";

// The transformer is loaded by ts-patch through Node's own loader; reaching its rule list
// through the same loader (not Vitest's) gives the very objects the transformer runs.
const require = createRequire(import.meta.url);
const rulesPath = require.resolve("@toolwright/compiler/transform").replace(/transform\.js$/, "schema/rules.js");
const { RULES } = require(rulesPath) as {
  RULES: { name: string; supports: (...args: unknown[]) => boolean; convert: (...args: unknown[]) => unknown }[];
};

const cases = fixtureCases();
const INTERNAL = 990008;
let healthy: Map<string, FixtureResult>;
let restore: (() => void) | undefined;

beforeAll(() => {
  healthy = compileFixtures(cases);
});

afterEach(() => {
  restore?.();
  restore = undefined;
});

function breakRule(name: string, part: "supports" | "convert"): void {
  const rule = RULES.find((r) => r.name === name);
  if (!rule) throw new Error(`no rule named ${name}`);
  const original = rule[part];
  rule[part] = () => {
    throw new Error(`forced failure in ${name}`);
  };
  restore = () => {
    rule[part] = original as never;
  };
}

describe("a rule that throws never crashes the transformer", () => {
  it.each([
    ["primitive", "convert"],
    ["object", "convert"],
    ["tuple", "supports"],
  ] as const)("the %s rule throwing in %s becomes TW990008 at the site", (name, part) => {
    breakRule(name, part);
    const broken = compileFixtures(cases);
    let reported = 0;
    for (const fixture of cases) {
      const before = healthy.get(fixture) as FixtureResult;
      const after = broken.get(fixture) as FixtureResult;
      const internal = after.diagnostics.filter((d) => d.code === INTERNAL);
      reported += internal.length;
      for (const d of internal) {
        expect(d.message).toContain(`forced failure in ${name}`);
        expect(d.message).toMatch(/^TW990008: .*toolwright bug/);
        expect(d.line).toBeGreaterThan(0);
      }
      // A site that hit the failure gets no spec (its tool() throws at run time), never a
      // partial one; every other site comes out exactly as before.
      if (internal.length === 0) expect(after.specs).toEqual(before.specs);
      else {
        for (const spec of after.specs) expect(before.specs).toContainEqual(spec);
        if (!fixture.startsWith("err-")) expect(after.specs.length).toBeLessThan(before.specs.length);
      }
    }
    expect(reported).toBeGreaterThan(0);
  });
});
