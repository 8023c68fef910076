import { cpSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { TsServer } from "../../scripts/bench/lib/tsserver-client.mjs";
import {
  byPlace,
  FIXTURES,
  GOLDEN_ONLY,
  type Golden,
  goldenDiagnostics,
  negativeCases,
  optionsKeyOf,
} from "./negative-fixtures.js";
import { EditorProject, TEST_DIR } from "./project.js";

// The compiler's negative fixtures opened in a real tsserver: the editor must report
// exactly the diagnostics the build reports (the goldens in expected.json).

// One project per distinct options.json, as the build compiles them, each case in its own folder.
const projects = new Map<string, EditorProject>();
const placed = new Map<string, string>();
for (const name of negativeCases) {
  const key = optionsKeyOf(name);
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

describe("the editor reports what the build reports, on the compiler's negative fixtures", () => {
  it.each(negativeCases)("%s", async (name) => {
    const dir = placed.get(name) ?? "";
    const golden = goldenDiagnostics(name);
    // Like the build's fixture suite: a case without a reviewed golden fails.
    expect(golden, `${name} has no expected.json (see test/README.md)`).toBeDefined();
    const files = readdirSync(dir).filter((f) => f.endsWith(".ts"));
    const reported: Golden[] = [];
    for (const file of files) {
      const full = path.join(dir, file);
      server.open(full);
      for (const d of await server.diagnostics(full)) {
        if (d.code >= 990000) reported.push({ file, line: d.start.line, code: d.code, message: d.text });
      }
    }
    expect(golden?.length).toBeGreaterThan(0);
    expect(reported.sort(byPlace)).toEqual([...(golden ?? [])].sort(byPlace));
  });
});
