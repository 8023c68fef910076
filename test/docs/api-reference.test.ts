import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { entryPoints, generateApi } from "../../scripts/docs/api.mjs";

const out = mkdtempSync(path.join(os.tmpdir(), "toolwright-api-"));

afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("the API reference generated from the TSDoc", () => {
  it("builds with no TypeDoc error or warning, one module per published entry point", async () => {
    const { errors, warnings } = await generateApi(out);
    expect({ errors, warnings }).toEqual({ errors: 0, warnings: 0 });
    const index = readFileSync(path.join(out, "README.md"), "utf8");
    for (const entry of entryPoints()) {
      const relative = path.relative(path.join(import.meta.dirname, "..", ".."), entry);
      const [, pkg, sub] = /^packages\/(runtime|compiler)\/src\/(.*)\.ts$/.exec(relative) ?? [];
      const base = pkg === "runtime" ? "toolwright" : "@toolwright/compiler";
      const dir = sub === "index" ? "" : sub?.replace(/\/index$/, "");
      expect(index).toContain(`[${dir ? `${base}/${dir}` : base}]`);
    }
    // The root entry's pages carry the TSDoc users read in their editor.
    const toolPage = path.join(out, "toolwright", "functions", "tool.md");
    expect(existsSync(toolPage)).toBe(true);
    expect(readFileSync(toolPage, "utf8")).toMatch(/## Example/);
    // TypeDoc type-checks every entry point of both packages: minutes on a busy 2-core machine.
  }, 300_000);
});
