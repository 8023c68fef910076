import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { RunResult } from "toolwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordRun } from "./record-run.js";

const run = promisify(execFile);
const bin = fileURLToPath(new URL("../../packages/compiler/dist/cli/bin.js", import.meta.url));
let dir: string;
let pausedState: string;
let finished: RunResult;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "toolwright-trace-"));
  ({ pausedState, finished } = await recordRun());
  writeFileSync(join(dir, "run.json"), JSON.stringify(finished));
  writeFileSync(join(dir, "state.json"), pausedState);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `toolwright <args>` as a real process with piped output; resolves even when it fails. */
async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: "" },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("result.trace()", () => {
  it("shows turns, and each call with arguments, outcome, duration, retries, repairs and approval", () => {
    const text = finished.trace();
    expect(text).toMatch(/^run run_\S+ · agent "support" · completed · 4 turns · 4 calls · /);
    expect(text).toMatch(/turn 1 fake:scripted · \d+ ms · 420 in \/ 38 out · \$0\.0011 · tool_calls/);
    expect(text).toContain('lookup_order {"id":"A-771"} → ok');
    expect(text).toMatch(/check_stock \{"sku":"MUG-1","qty":"2"\} → ok \d+ ms · 2 attempts/);
    expect(text).toContain("repaired string_to_number at /qty");
    expect(text).toMatch(/cancel_order \{"id":"A-771"\} → ok \d+ ms · approved/);
    expect(text).toMatch(/lookup_order \{"id":"A-404"\} → tool_error \d+ ms/);
    expect(text).toContain("= no order A-404");
    expect(text).toMatch(/└─ answer: Order A-771 shipped and is now cancelled; A-404 does not exist\.\n$/);
    // The call's own line measures it: a 15 ms pause cannot take 0 ms.
    expect(finished.steps[0]?.calls[0]?.durationMs).toBeGreaterThanOrEqual(14);
  });

  it("paints only when asked", () => {
    expect(finished.trace()).not.toContain("\u001b[");
    expect(finished.trace({ color: true })).toContain("\u001b[32mok\u001b[0m");
  });
});

describe("toolwright trace", () => {
  it("prints a saved run result as the result prints itself, without colour when piped", async () => {
    const { code, stdout } = await cli("trace", "run.json");
    expect(code).toBe(0);
    expect(stdout).toBe(JSON.parse(JSON.stringify(finished.trace())));
  });

  it("prints a stored run state as a run waiting for approval", async () => {
    const { code, stdout } = await cli("trace", "state.json");
    expect(code).toBe(0);
    expect(stdout).toMatch(/· interrupted · 2 turns · 2 calls/);
    expect(stdout).toMatch(/└─ waiting for approval: cancel_order \{"id":"A-771"\} \(call_2_0\)/);
  });

  it("reads a saved run without loading TypeScript (commands load when they run)", async () => {
    // Preloaded into the CLI's process: at exit, tells whether TypeScript's compiler was required.
    const probe = join(dir, "probe.cjs");
    writeFileSync(
      probe,
      `process.on("exit", () => process.stderr.write("typescript loaded: " + Object.keys(require.cache).some((f) => /[\\\\/]typescript[\\\\/]lib[\\\\/]/.test(f)) + "\\n"));`,
    );
    const traced = await run(process.execPath, ["--require", probe, bin, "trace", "run.json"], { cwd: dir });
    expect(traced.stdout).toContain("answer: Order A-771 shipped");
    expect(traced.stderr).toContain("typescript loaded: false");
    // The probe itself sees a process that does load it (the tests' own TypeScript 5.9).
    const loading = await run(process.execPath, ["--require", probe, "-e", 'require("typescript")'], {
      cwd: fileURLToPath(new URL(".", import.meta.url)),
    });
    expect(loading.stderr).toContain("typescript loaded: true");
  });

  it("paints on a terminal", async () => {
    // `script` gives the process a pseudo-terminal, as a person's shell would.
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} trace run.json`;
    const { stdout } = await run("script", ["-qec", command, "/dev/null"], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: "" },
    });
    expect(stdout).toContain("\u001b[32mok\u001b[0m");
  });
});

describe("toolwright trace on bad input names the file and what is wrong", () => {
  const cases: [string, (text: string) => string, RegExp][] = [
    [
      "a truncated file",
      (text) => text.slice(0, Math.floor(text.length / 2)),
      /the JSON ends early \(after \d+ characters\): the file was cut short/,
    ],
    ["an empty file", () => "", /the file is empty/],
    [
      "a run saved in an older format",
      (text) => {
        const { format, version, ...older } = JSON.parse(text);
        return JSON.stringify(older);
      },
      /a run saved in an older format \(it has no "format" field; this toolwright reads "format": "toolwright.run", version 1\)/,
    ],
    [
      "a run from a newer toolwright",
      (text) => JSON.stringify({ ...JSON.parse(text), version: 99 }),
      /the saved run is version 99, newer than this toolwright reads \(1\): upgrade toolwright/,
    ],
    [
      "a damaged record",
      (text) => {
        const data = JSON.parse(text);
        delete data.steps[1].calls;
        return JSON.stringify(data);
      },
      /steps\[1\]\.calls should be an array, got nothing \(the field is missing\)/,
    ],
    ["another JSON file", () => '{"name": "my-package"}', /not a toolwright run: expected "format": "toolwright.run"/],
  ];
  for (const [what, damage, message] of cases) {
    it(`refuses ${what}`, async () => {
      const file = `bad-${what.replace(/\W+/g, "-")}.json`;
      writeFileSync(join(dir, file), damage(readFileSync(join(dir, "run.json"), "utf8")));
      const { code, stdout, stderr } = await cli("trace", file);
      expect(code).toBe(1);
      expect(stdout).toBe("");
      expect(stderr).toMatch(new RegExp(`^toolwright trace: ${file.replace(/\./g, "\\.")}: `));
      expect(stderr).toMatch(message);
    });
  }

  it("gives toolwright view the same errors, and writes no page", async () => {
    writeFileSync(join(dir, "cut.json"), readFileSync(join(dir, "run.json"), "utf8").slice(0, 100));
    const { code, stderr } = await cli("view", "cut.json");
    expect(code).toBe(1);
    expect(stderr).toMatch(/^toolwright view: cut\.json: the JSON ends early \(after 100 characters\)/);
    expect(existsSync(join(dir, "cut.html"))).toBe(false);
  });

  it("refuses a missing file and a missing argument", async () => {
    expect(await cli("trace", "nowhere.json")).toMatchObject({
      code: 1,
      stderr: "toolwright trace: nowhere.json: no such file; pass the JSON a run was saved to.\n",
    });
    const none = await cli("trace");
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("name the saved run, e.g. toolwright trace run.json");
  });
});
