import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { formatTrace, readSavedRun, SavedRunError } from "../../src/trace/index.js";

// Saved runs are versioned: these fixtures, written by earlier versions, must keep reading.
const fixture = (name: string) => readFileSync(new URL(name, import.meta.url), "utf8");

describe("readSavedRun", () => {
  it("reads a version 1 saved run, and its trace is unchanged", () => {
    const run = readSavedRun(fixture("./fixtures/run-v1.json"), "run-v1.json");
    expect(formatTrace(run)).toBe(fixture("./fixtures/run-v1.trace.txt"));
  });

  it("reads a version 1 run state recorded before turns and calls had timings", () => {
    const run = readSavedRun(fixture("../agent/fixtures/run-state-v1.json"), "state.json");
    expect(run.status).toBe("interrupted");
    expect(run.interruptions.map((i) => i.toolName)).toEqual(["cancel"]);
    const text = formatTrace(run);
    // A call that ran but was recorded without a duration shows none, rather than "not run".
    expect(text).toContain('lookup {"id":"A-1"} → ok\n');
    expect(text).toContain('└─ waiting for approval: cancel {"id":"A-1"} (call_1_1)');
  });

  it("throws a SavedRunError that carries the file and the problem", () => {
    const error = (() => {
      try {
        readSavedRun("[1, 2]", "list.json");
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(SavedRunError);
    expect(error).toMatchObject({
      file: "list.json",
      problem: "expected a JSON object (a saved run), got an array.",
      message: "list.json: expected a JSON object (a saved run), got an array.",
    });
  });
});
