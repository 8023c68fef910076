import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeModule } from "../../src/cli/rendered-module.js";

const temp = mkdtempSync(path.join(tmpdir(), "toolwright-rendered-module-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

// A time long past: a file written again gets the current one.
const PAST = new Date("2020-01-01T00:00:00Z");

describe("writeModule", () => {
  it("creates the module and its folder", () => {
    const out = path.join(temp, "new", "src", "toolwright.gen.ts");
    expect(writeModule(out, "registerSpecs([]);\n")).toBe("created");
    expect(readFileSync(out, "utf8")).toBe("registerSpecs([]);\n");
  });

  it("leaves a module that holds the text untouched, multi-byte characters included", () => {
    const out = path.join(temp, "same.gen.ts");
    const text = "// Température à Zürich — °C\nregisterSpecs([]);\n";
    writeFileSync(out, text);
    utimesSync(out, PAST, PAST);
    expect(writeModule(out, text)).toBeUndefined();
    expect(statSync(out).mtime).toEqual(PAST);
  });

  it("writes a module whose bytes differ, of the same size or another", () => {
    const out = path.join(temp, "changed.gen.ts");
    writeFileSync(out, "const tool0 = 1;\n");
    expect(writeModule(out, "const tool0 = 2;\n")).toBe("changed");
    expect(readFileSync(out, "utf8")).toBe("const tool0 = 2;\n");
    expect(writeModule(out, "const tool0 = 20;\n")).toBe("changed");
    expect(readFileSync(out, "utf8")).toBe("const tool0 = 20;\n");
  });
});
