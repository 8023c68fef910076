import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// `npm test` first runs scripts/system-deps.mjs, which installs Debian's chromium and
// postgresql when they are missing and it may (root, apt-get), and otherwise stops with
// the command that installs them. Here it may not: apt-get is off its PATH.

const SCRIPT = path.resolve(import.meta.dirname, "../../scripts/system-deps.mjs");
const dir = mkdtempSync(path.join(tmpdir(), "toolwright-system-deps-"));
// A PATH holding node and nothing else (no sh, no apt-get), and a PG_BIN with no initdb.
const bin = path.join(dir, "bin");
const empty = path.join(dir, "no-postgres");
mkdirSync(bin);
mkdirSync(empty);
symlinkSync(process.execPath, path.join(bin, "node"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the tests' system packages", () => {
  it("stop npm test with the one command that installs them, when they are missing and apt-get cannot run", () => {
    const run = spawnSync(process.execPath, [SCRIPT], {
      encoding: "utf8",
      env: { PATH: bin, PG_BIN: empty },
    });
    expect(run.stdout).toBe("");
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("toolwright: the tests need what this machine lacks:");
    expect(run.stderr).toContain("  - PostgreSQL's server, initdb and pg_ctl");
    expect(run.stderr).toMatch(
      /^ {2}(sudo )?apt-get update && (sudo )?apt-get install -y --no-install-recommends (chromium )?postgresql$/m,
    );
  });

  it("say nothing when both are there, as they are once npm test has run it", () => {
    const run = spawnSync(process.execPath, [SCRIPT], { encoding: "utf8" });
    expect({ status: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({
      status: 0,
      stdout: "",
      stderr: "",
    });
  });
});
