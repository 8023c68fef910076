import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import module from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The CLI keeps the compiled code of the modules it loads in Node's compile cache, on the
// Node versions that have one (22.1 and later; this file also runs under Node 22 and 24).

const run = promisify(execFile);
const bin = path.resolve(import.meta.dirname, "../../dist/cli/bin.js");
const nodeHasCompileCache = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === "function";
let temp: string;

beforeAll(() => {
  temp = mkdtempSync(path.join(tmpdir(), "toolwright-compile-cache-"));
});
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** The files under `dir`, none when it does not exist. */
function filesIn(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}

describe("the toolwright executable and Node's compile cache", () => {
  it(`${nodeHasCompileCache ? "fills" : "leaves alone"} Node's default compile cache folder on Node ${process.versions.node}`, async () => {
    // Node's default folder is in the OS temp folder: TMPDIR moves it into this test's own.
    const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: temp };
    delete env.NODE_COMPILE_CACHE;
    delete env.NODE_DISABLE_COMPILE_CACHE;
    const { stdout } = await run(process.execPath, [bin, "gen", "--help"], { env });
    expect(stdout).toContain("usage: toolwright gen");
    const cached = filesIn(path.join(temp, "node-compile-cache"));
    if (nodeHasCompileCache) expect(cached.length).toBeGreaterThan(0);
    else expect(cached).toEqual([]);
  });
});
