import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { removeTempProject } from "../../packages/compiler/test/temp-project.js";
import { CLI, projectWith, TS7, tsconfig } from "./project.js";

// `toolwright gen --watch` on TypeScript 7: one long-lived process (one API process inside),
// fed the files that change; a real process, real file edits, the module read back.

const TOOLS = `import { tool } from "toolwright";

/**
 * Current temperature in a city.
 * @param city City name, e.g. "Oslo".
 */
function getTemperature(city: string): string {
  return city;
}

export const temperature = tool(getTemperature);
`;

const MORE = `import { tool } from "toolwright";

/**
 * Book a table for a party.
 * @param party How many people.
 */
function bookTable(party: number): string {
  return String(party);
}

export const booking = tool(bookTable);
`;

const roots: string[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill();
  for (const root of roots) removeTempProject(root);
});

/** The process's stdout so far, and a wait for the n-th "watching for changes". */
function watching(child: ChildProcess): { output: () => string; round: (n: number) => Promise<string> } {
  let out = "";
  let err = "";
  const waiters: (() => void)[] = [];
  child.stdout?.on("data", (chunk: Buffer) => {
    out += chunk.toString();
    for (const wake of waiters.splice(0)) wake();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    err += chunk.toString();
  });
  const rounds = () => out.split("watching for changes\n").length - 1;
  return {
    output: () => out,
    round: (n) =>
      new Promise((done, fail) => {
        const check = () => {
          if (rounds() >= n) done(out);
          else waiters.push(check);
        };
        child.once("exit", (code) => fail(new Error(`gen --watch exited (${code}):\n${out}\n${err}`)));
        check();
      }),
  };
}

describe("toolwright gen --watch on TypeScript 7", () => {
  it("writes the module again when a tool changes and when a file with a tool is created", async () => {
    const root = projectWith("gen7-watch", TS7, { "tsconfig.json": tsconfig() });
    roots.push(root);
    const src = (file: string) => path.join(root, "src", file);
    writeFileSync(src("tools.ts"), TOOLS);
    const child = spawn(process.execPath, [CLI, "gen", "--watch"], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    const watch = watching(child);
    const module = () => readFileSync(src("toolwright.gen.ts"), "utf8");

    expect(await watch.round(1)).toBe("wrote 1 tool spec to src/toolwright.gen.ts\nwatching for changes\n");
    expect(module()).toContain('"description": "Current temperature in a city."');

    writeFileSync(
      src("tools.ts"),
      TOOLS.replace("Current temperature in a city.", "Temperature right now, in a city."),
    );
    await watch.round(2);
    expect(module()).toContain('"description": "Temperature right now, in a city."');
    expect(module()).not.toContain("Current temperature");

    writeFileSync(src("more.ts"), MORE);
    const output = await watch.round(3);
    expect(output.endsWith("wrote 2 tool specs to src/toolwright.gen.ts\nwatching for changes\n")).toBe(true);
    expect(module()).toContain('"fn": "bookTable"');

    // A tool error is reported and the module is kept as it was.
    writeFileSync(src("more.ts"), MORE.replace("Book a table for a party.", ""));
    await watch.round(4);
    expect(module()).toContain('"fn": "bookTable"');
    child.kill();
  }, 120_000);
});
