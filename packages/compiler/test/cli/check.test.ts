import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/index.js";

// `toolwright check` on a sequence of edits to one tool file: each breaking kind is
// flagged with its diff line, additive edits pass, --update accepts the current contracts.

const root = path.resolve(import.meta.dirname, "../.tmp/check-project");
const toolsFile = path.join(root, "src", "tools.ts");
const bin = path.resolve(import.meta.dirname, "../../dist/cli/bin.js");

interface Tools {
  searchParams: string;
  searchDocs?: string;
  lookupParam: string;
  lookupFlags: string;
  draftFlags: string;
  draftSite: string;
}

const base: Tools = {
  searchParams: `origin: string,
  destination: string,
  cabin: "economy" | "business" | "first" = "economy",
  /** @minimum 0 @maximum 3 */ maxStops = 1,`,
  lookupParam: "reference: string | number",
  lookupFlags: "@readOnly",
  draftFlags: "",
  draftSite: "tool(deleteDraft)",
};

function write(tools: Tools): void {
  writeFileSync(
    toolsFile,
    `import { tool } from "toolwright";

/**
 * ${tools.searchDocs ?? "Search for available flights between two airports."}
 * @param origin IATA code of the departure airport, e.g. "SFO".
 * @param destination IATA code of the arrival airport, e.g. "JFK".
 * @param cabin Preferred cabin class.
 * @param maxStops Maximum number of layovers to allow.
 */
function searchFlights(
  ${tools.searchParams}
): string {
  return [origin, destination, cabin, maxStops].join(" ");
}

/**
 * Look up a booking by its reference and show its status.
 * @param reference Booking reference.
 * ${tools.lookupFlags}
 */
function lookupBooking(${tools.lookupParam}): string {
  return String(reference);
}

/**
 * Delete a draft booking that was never paid for.
 * @param id Draft id.
 * ${tools.draftFlags}
 */
function deleteDraft(id: string): void {
  void id;
}

export const search = tool(searchFlights);
export const lookup = tool(lookupBooking);
export const drop = ${tools.draftSite};
`,
  );
}

async function check(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await main(["check", ...args], {
    cwd: root,
    out: (t) => {
      out += t;
    },
    err: (t) => {
      err += t;
    },
  });
  return { code, out, err };
}

function lines(text: string): string[] {
  return text.split("\n").filter((l) => /^ {2}[-+] /.test(l));
}

beforeAll(() => {
  rmSync(root, { recursive: true, force: true });
  mkdirSync(path.join(root, "src"), { recursive: true });
  writeFileSync(
    path.join(root, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        skipLibCheck: true,
        types: [],
        noEmit: true,
      },
      include: ["src"],
    }),
  );
  write(base);
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe("toolwright check", () => {
  it("fails without a lockfile, then --update records every tool", async () => {
    const missing = await check();
    expect(missing.code).toBe(1);
    expect(missing.err).toContain("toolwright.lock.json does not exist: run 'toolwright check --update'");

    const update = await check("--update");
    expect(update.code).toBe(0);
    expect(update.out).toContain("wrote 3 tool contracts to toolwright.lock.json");
    const lock = JSON.parse(readFileSync(path.join(root, "toolwright.lock.json"), "utf8"));
    expect(Object.keys(lock.tools)).toEqual(["deleteDraft", "lookupBooking", "searchFlights"]);
    expect(lock.tools.searchFlights.source).toBe("src/tools.ts");
    expect(lock.tools.searchFlights.function).toBe("searchFlights");

    const again = await check();
    expect(again.code).toBe(0);
    expect(again.out).toContain("No change against toolwright.lock.json.");
  });

  it("passes additive edits: a new optional parameter, a new enum value, a looser bound, a new description", async () => {
    write({
      ...base,
      searchDocs: "Search for available flights between two airports, cheapest first.",
      searchParams: `origin: string,
  destination: string,
  cabin: "economy" | "premium" | "business" | "first" = "economy",
  /** @minimum 0 @maximum 5 */ maxStops = 1,
  nonstop?: boolean,`,
    });
    const result = await check();
    expect(result.code).toBe(0);
    expect(lines(result.out)).toEqual([
      '  + searchFlights: parameter "cabin": enum value "premium" added',
      '  + searchFlights: parameter "maxStops": maximum loosened from 3 to 5',
      '  + searchFlights: new optional parameter "nonstop"',
      "  + searchFlights: description changed",
    ]);
    expect((await check("--update")).code).toBe(0);
  });

  it("flags a new required parameter, a removed parameter and a removed enum value", async () => {
    write({
      ...base,
      searchParams: `origin: string,
  destination: string,
  cabin: "economy" | "premium" | "business" = "economy",
  passengers: number,
  nonstop?: boolean,`,
    });
    const result = await check();
    expect(result.code).toBe(1);
    expect(lines(result.err)).toEqual([
      '  - searchFlights: parameter "cabin": enum value "first" removed',
      '  - searchFlights: parameter "maxStops" removed',
      '  - searchFlights: new required parameter "passengers"',
      "  + searchFlights: description changed",
    ]);
    expect(result.err).toContain("3 breaking changes against toolwright.lock.json:");
    expect(result.err).toContain("If these changes are intended, run 'toolwright check --update'");
  });

  it("flags a narrowed type, a tightened constraint and an optional parameter made required", async () => {
    write({
      ...base,
      searchDocs: "Search for available flights between two airports, cheapest first.",
      searchParams: `origin: string,
  destination: string,
  cabin: "economy" | "premium" | "business" | "first" = "economy",
  /** @minimum 1 @maximum 5 */ maxStops = 1,
  nonstop: boolean,`,
      lookupParam: "reference: string",
    });
    const result = await check();
    expect(result.code).toBe(1);
    expect(lines(result.err)).toEqual([
      '  - lookupBooking: parameter "reference": type narrowed: no longer accepts number',
      '  - searchFlights: parameter "maxStops": minimum tightened from 0 to 1',
      '  - searchFlights: parameter "nonstop" is now required',
    ]);
  });

  it("flags flags turned towards danger", async () => {
    write({
      ...base,
      searchDocs: "Search for available flights between two airports, cheapest first.",
      searchParams: `origin: string,
  destination: string,
  cabin: "economy" | "premium" | "business" | "first" = "economy",
  /** @minimum 0 @maximum 5 */ maxStops = 1,
  nonstop?: boolean,`,
      lookupFlags: "",
      draftFlags: "@destructive",
    });
    const result = await check();
    expect(result.code).toBe(1);
    expect(lines(result.err)).toEqual([
      "  - deleteDraft: flag: is now destructive",
      "  - lookupBooking: flag: is no longer readOnly (it may now change things)",
    ]);
  });

  it("flags a removed tool and reports a renamed tool as a rename (real CLI process)", async () => {
    write({
      ...base,
      searchDocs: "Search for available flights between two airports, cheapest first.",
      searchParams: `origin: string,
  destination: string,
  cabin: "economy" | "premium" | "business" | "first" = "economy",
  /** @minimum 0 @maximum 5 */ maxStops = 1,
  nonstop?: boolean,`,
      draftSite: 'tool(deleteDraft, { name: "discard_draft" })',
    });
    const renamed = await promisify(execFile)(process.execPath, [bin, "check"], { cwd: root }).then(
      () => ({ code: 0, stderr: "" }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(renamed.code).toBe(1);
    expect(lines(renamed.stderr)).toEqual([
      '  - deleteDraft: renamed to "discard_draft" (src/tools.ts, function deleteDraft); models and stored transcripts still call "deleteDraft"',
    ]);

    write({ ...base, draftSite: "undefined" });
    const removed = await check();
    expect(removed.code).toBe(1);
    expect(lines(removed.err)).toContain("  - deleteDraft: removed (was function deleteDraft in src/tools.ts)");
  });

  it("accepts breaking changes with --update, after which check passes", async () => {
    write({ ...base, draftSite: 'tool(deleteDraft, { name: "discard_draft" })' });
    const update = await check("--update");
    expect(update.code).toBe(0);
    expect(update.out).toContain('renamed to "discard_draft"');
    expect((await check()).code).toBe(0);
  });
});
