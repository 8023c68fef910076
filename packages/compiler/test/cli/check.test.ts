import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../src/cli/index.js";
import { removeTempProject, tempProject } from "../temp-project.js";

// `toolwright check` on edits to one tool file: each breaking kind is flagged with its
// diff line, additive edits pass, --update accepts the current contracts. Each test has
// its own project, locked at a known state, so any test passes alone.

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

/** The edits the additive test accepts: the lock most tests start from. */
const additive: Tools = {
  ...base,
  searchDocs: "Search for available flights between two airports, cheapest first.",
  searchParams: `origin: string,
  destination: string,
  cabin: "economy" | "premium" | "business" | "first" = "economy",
  /** @minimum 0 @maximum 5 */ maxStops = 1,
  nonstop?: boolean,`,
};

function write(root: string, tools: Tools): void {
  writeFileSync(
    path.join(root, "src", "tools.ts"),
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

async function check(root: string, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
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

const roots: string[] = [];

/** A new project with `tools` written; with `lockedAt`, its lockfile records that state first. */
async function project(tools: Tools, lockedAt?: Tools): Promise<string> {
  const root = tempProject("check");
  roots.push(root);
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
  if (lockedAt) {
    write(root, lockedAt);
    const locked = await check(root, "--update");
    if (locked.code !== 0) throw new Error(`could not lock the starting state:\n${locked.err}`);
  }
  write(root, tools);
  return root;
}

afterEach(() => {
  for (const root of roots.splice(0)) removeTempProject(root);
});

describe("toolwright check", () => {
  it("fails without a lockfile, then --update records every tool", async () => {
    const root = await project(base);
    const missing = await check(root);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain("toolwright.lock.json does not exist: run 'toolwright check --update'");

    const update = await check(root, "--update");
    expect(update.code).toBe(0);
    expect(update.out).toContain("wrote 3 tool contracts to toolwright.lock.json");
    const lock = JSON.parse(readFileSync(path.join(root, "toolwright.lock.json"), "utf8"));
    expect(Object.keys(lock.tools)).toEqual(["deleteDraft", "lookupBooking", "searchFlights"]);
    expect(lock.tools.searchFlights.source).toBe("src/tools.ts");
    expect(lock.tools.searchFlights.function).toBe("searchFlights");

    const again = await check(root);
    expect(again.code).toBe(0);
    expect(again.out).toContain("No change against toolwright.lock.json.");
  });

  it("passes additive edits: a new optional parameter, a new enum value, a looser bound, a new description", async () => {
    const root = await project(additive, base);
    const result = await check(root);
    expect(result.code).toBe(0);
    expect(lines(result.out)).toEqual([
      '  + searchFlights: parameter "cabin": enum value "premium" added',
      '  + searchFlights: parameter "maxStops": maximum loosened from 3 to 5',
      '  + searchFlights: new optional parameter "nonstop"',
      "  + searchFlights: description changed",
    ]);
    expect((await check(root, "--update")).code).toBe(0);
    expect((await check(root)).out).toContain("No change against toolwright.lock.json.");
  });

  it("flags a new required parameter, a removed parameter and a removed enum value", async () => {
    const root = await project(
      {
        ...base,
        searchParams: `origin: string,
  destination: string,
  cabin: "economy" | "premium" | "business" = "economy",
  passengers: number,
  nonstop?: boolean,`,
      },
      additive,
    );
    const result = await check(root);
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
    const root = await project(
      {
        ...base,
        searchDocs: "Search for available flights between two airports, cheapest first.",
        searchParams: `origin: string,
  destination: string,
  cabin: "economy" | "premium" | "business" | "first" = "economy",
  /** @minimum 1 @maximum 5 */ maxStops = 1,
  nonstop: boolean,`,
        lookupParam: "reference: string",
      },
      additive,
    );
    const result = await check(root);
    expect(result.code).toBe(1);
    expect(lines(result.err)).toEqual([
      '  - lookupBooking: parameter "reference": type narrowed: no longer accepts number',
      '  - searchFlights: parameter "maxStops": minimum tightened from 0 to 1',
      '  - searchFlights: parameter "nonstop" is now required',
    ]);
  });

  it("flags flags turned towards danger", async () => {
    const root = await project(
      {
        ...additive,
        lookupFlags: "",
        draftFlags: "@destructive",
      },
      additive,
    );
    const result = await check(root);
    expect(result.code).toBe(1);
    expect(lines(result.err)).toEqual([
      "  - deleteDraft: flag: is now destructive",
      "  - lookupBooking: flag: is no longer readOnly (it may now change things)",
    ]);
  });

  it("flags a removed tool and reports a renamed tool as a rename (real CLI process)", async () => {
    const root = await project(
      {
        ...additive,
        draftSite: 'tool(deleteDraft, { name: "discard_draft" })',
      },
      additive,
    );
    const renamed = await promisify(execFile)(process.execPath, [bin, "check"], { cwd: root }).then(
      () => ({ code: 0, stderr: "" }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(renamed.code).toBe(1);
    expect(lines(renamed.stderr)).toEqual([
      '  - deleteDraft: renamed to "discard_draft" (src/tools.ts, function deleteDraft); models and stored transcripts still call "deleteDraft"',
    ]);

    write(root, { ...base, draftSite: "undefined" });
    const removed = await check(root);
    expect(removed.code).toBe(1);
    expect(lines(removed.err)).toContain("  - deleteDraft: removed (was function deleteDraft in src/tools.ts)");
  });

  it("accepts breaking changes with --update, after which check passes", async () => {
    const root = await project({ ...base, draftSite: 'tool(deleteDraft, { name: "discard_draft" })' }, additive);
    const update = await check(root, "--update");
    expect(update.code).toBe(0);
    expect(update.out).toContain('renamed to "discard_draft"');
    expect((await check(root)).code).toBe(0);
  });
});
