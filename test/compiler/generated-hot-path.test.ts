import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileFixtures } from "./compile-fixtures.js";

// A compiled tool in a fresh Node process: its valid calls pass the generated validator and
// never load Ajv; a call the generated check rejects goes through Ajv, so repairs and the
// feedback message work as before. Under test/.tmp so that "toolwright" resolves to the workspace.
let dir: string;

const PROBE = `
import { createRequire } from "node:module";
import { validateArguments } from "toolwright";
import { signup } from "./input.js";

const cache = createRequire(import.meta.url).cache;
const loaded = (name) => Object.keys(cache).some((file) => new RegExp("[\\\\/]" + name + "[\\\\/]").test(file));
const ajvLoaded = () => loaded("ajv") || loaded("ajv-formats");
const call = { username: "ada", email: "a@b.c", age: 30, tags: ["x"], score: 4 };
const out = {};
const valid = validateArguments(signup, JSON.stringify(call));
out.valid = valid.ok && Object.isFrozen(valid.args);
out.ajvAfterValid = ajvLoaded();
out.jsonrepairAfterValid = loaded("jsonrepair");
const repaired = validateArguments(signup, JSON.stringify({ ...call, age: "30" }));
out.repairs = repaired.ok ? repaired.repairs.map((r) => r.kind) : repaired.error.message;
out.ajvAfterRepair = ajvLoaded();
const invalid = validateArguments(signup, { ...call, age: 12 });
out.feedback = invalid.ok ? "accepted" : invalid.error.message;
const broken = validateArguments(signup, JSON.stringify(call).replace("}", ",}"));
out.brokenJson = broken.ok ? broken.repairs.map((r) => r.kind) : broken.error.message;
out.jsonrepairAfterBroken = loaded("jsonrepair");
console.log(JSON.stringify(out));
`;

beforeAll(() => {
  const tmp = path.resolve(import.meta.dirname, "../.tmp");
  mkdirSync(tmp, { recursive: true });
  dir = mkdtempSync(path.join(tmp, "hot-path-"));
  const compiled = compileFixtures(["tsdoc-constraints"]).get("tsdoc-constraints");
  if (!compiled?.js) throw new Error("the fixture did not compile");
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ type: "module" }));
  writeFileSync(path.join(dir, "input.js"), compiled.js);
  writeFileSync(path.join(dir, "probe.js"), PROBE);
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("the generated validator on the hot path", () => {
  it("accepts a valid call without loading Ajv or jsonrepair, and rejected calls still get repairs and feedback", () => {
    const out = JSON.parse(execFileSync(process.execPath, ["probe.js"], { cwd: dir, encoding: "utf8" })) as Record<
      string,
      unknown
    >;
    expect(out).toMatchObject({
      valid: true,
      ajvAfterValid: false,
      jsonrepairAfterValid: false,
      repairs: ["string_to_number"],
      ajvAfterRepair: true,
      brokenJson: ["json_repaired"],
      jsonrepairAfterBroken: true,
    });
    expect(out.feedback).toContain("age");
    expect(out.feedback).toContain("18");
  });
});
