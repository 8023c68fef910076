import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileFixtures } from "./compile-fixtures.js";

// Compiled tools in a fresh Node process: valid calls pass the generated validator and never
// load Ajv; a rejected call is repaired and gets its feedback from the generated collectors,
// still without Ajv, unless its schema uses a keyword the collectors leave to Ajv (the
// signup tool's uniqueItems). Under test/.tmp so that "toolwright" resolves to the workspace.
let dir: string;

const PROBE = `
import { createRequire } from "node:module";
import { validateArguments } from "toolwright";
import { signup } from "./input.js";
import { print } from "./print.js";

const cache = createRequire(import.meta.url).cache;
const loaded = (name) => Object.keys(cache).some((file) => new RegExp("[\\\\/]" + name + "[\\\\/]").test(file));
const ajvLoaded = () => loaded("ajv") || loaded("ajv-formats");
const out = {};
const pages = validateArguments(print, { document: "a", page: { pages: ["2"] }, tray: null, colour: true });
out.collectedFeedback = pages.ok ? "accepted" : pages.error.message;
const pagesRepaired = validateArguments(print, { document: "a", page: { pages: ["2"] }, tray: null });
out.collectedRepairs = pagesRepaired.ok ? pagesRepaired.repairs.map((r) => r.kind) : pagesRepaired.error.message;
out.ajvAfterCollected = ajvLoaded();
const call = { username: "ada", email: "a@b.c", age: 30, tags: ["x"], score: 4 };
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
  const compiled = compileFixtures(["tsdoc-constraints", "integer-plain-alias"]);
  const signup = compiled.get("tsdoc-constraints")?.js;
  const print = compiled.get("integer-plain-alias")?.js;
  if (!signup || !print) throw new Error("the fixtures did not compile");
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ type: "module" }));
  writeFileSync(path.join(dir, "input.js"), signup);
  writeFileSync(path.join(dir, "print.js"), print);
  writeFileSync(path.join(dir, "probe.js"), PROBE);
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("the generated validator on the hot path", () => {
  it("accepts a valid call without loading Ajv or jsonrepair, and repairs and words rejected calls without Ajv where the collectors cover the schema", () => {
    const out = JSON.parse(execFileSync(process.execPath, ["probe.js"], { cwd: dir, encoding: "utf8" })) as Record<
      string,
      unknown
    >;
    expect(out).toMatchObject({
      collectedRepairs: ["string_to_number"],
      ajvAfterCollected: false,
      valid: true,
      ajvAfterValid: false,
      jsonrepairAfterValid: false,
      repairs: ["string_to_number"],
      ajvAfterRepair: true,
      brokenJson: ["json_repaired"],
      jsonrepairAfterBroken: true,
    });
    expect(out.collectedFeedback).toBe(
      [
        'Invalid arguments for tool "printPages":',
        '- unexpected key "colour"',
        "Accepted keys: document (string, required); page (object, required); tray (integer or null, required).",
        "Fix the arguments and call printPages again.",
      ].join("\n"),
    );
    expect(out.feedback).toContain("age");
    expect(out.feedback).toContain("18");
  });
});
