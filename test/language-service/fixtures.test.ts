import { cpSync, existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { TsServer } from "../../scripts/bench/lib/tsserver-client.mjs";
import { EditorProject, TEST_DIR } from "./project.js";

// The compiler's negative fixtures (err-*, and warn-* whose tools still get specs), opened
// in a real tsserver: the editor must report exactly the diagnostics the build reports
// (the goldens in expected.json).
const FIXTURES = path.join(TEST_DIR, "fixtures");
const GOLDEN_ONLY = new Set(["expected.json", "options.json", "valid.json", "invalid.json"]);

interface Golden {
  readonly file: string;
  readonly line: number;
  readonly code: number;
  readonly message: string;
}

const cases = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((d) => d.isDirectory() && (d.name.startsWith("err-") || d.name.startsWith("warn-")))
  .map((d) => d.name)
  .sort();

function optionsOf(name: string): string {
  try {
    return readFileSync(path.join(FIXTURES, name, "options.json"), "utf8");
  } catch {
    return "{}";
  }
}

// One project per distinct options.json, as the build compiles them, each case in its own folder.
const projects = new Map<string, EditorProject>();
const placed = new Map<string, string>();
for (const name of cases) {
  const key = JSON.stringify(JSON.parse(optionsOf(name)));
  let project = projects.get(key);
  if (!project) {
    project = new EditorProject("ls-fixtures", JSON.parse(key) as Record<string, unknown>);
    projects.set(key, project);
  }
  const dir = path.join(project.dir, "src", name);
  cpSync(path.join(FIXTURES, name), dir, { recursive: true, filter: (from) => !GOLDEN_ONLY.has(path.basename(from)) });
  placed.set(name, dir);
}

const server = new TsServer(TEST_DIR);

afterAll(async () => {
  await server.close();
  for (const project of projects.values()) project.remove();
});

const byPlace = (a: Golden, b: Golden) => a.file.localeCompare(b.file) || a.line - b.line || a.code - b.code;

describe("the editor reports what the build reports, on the compiler's negative fixtures", () => {
  it.each(cases)("%s", async (name) => {
    const dir = placed.get(name) ?? "";
    const goldenFile = path.join(FIXTURES, name, "expected.json");
    // Like the build's fixture suite: a case without a reviewed golden fails.
    expect(existsSync(goldenFile), `${name} has no expected.json (see test/README.md)`).toBe(true);
    const golden = JSON.parse(readFileSync(goldenFile, "utf8")) as { diagnostics: Golden[] };
    const files = readdirSync(dir).filter((f) => f.endsWith(".ts"));
    const reported: Golden[] = [];
    for (const file of files) {
      const full = path.join(dir, file);
      server.open(full);
      for (const d of await server.diagnostics(full)) {
        if (d.code >= 990000) reported.push({ file, line: d.start.line, code: d.code, message: d.text });
      }
    }
    expect(golden.diagnostics.length).toBeGreaterThan(0);
    expect(reported.sort(byPlace)).toEqual([...golden.diagnostics].sort(byPlace));
  });
});
