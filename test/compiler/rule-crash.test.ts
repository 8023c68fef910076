import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { RULES } from "../../packages/compiler/src/schema/rules.js";
import toolwrightTransform from "../../packages/compiler/src/transform.js";
import { compileFixtures, type FixtureResult, fixtureCases, type ProgramTransformer } from "./compile-fixtures.js";

// The published transformer is one bundle whose rule list no import reaches: these runs call
// the transformer's source, loaded with the rule list it runs, as ts-patch would call it.
const transform = toolwrightTransform as ProgramTransformer;

const cases = fixtureCases();
const INTERNAL = 990008;
let healthy: Map<string, FixtureResult>;
let restore: (() => void) | undefined;

beforeAll(() => {
  healthy = compileFixtures(cases, { transform });
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
    const broken = compileFixtures(cases, { transform });
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
