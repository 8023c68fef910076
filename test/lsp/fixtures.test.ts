import { cpSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { removeTempProject } from "../../packages/compiler/test/temp-project.js";
import {
  byPlace,
  FIXTURES,
  GOLDEN_ONLY,
  type Golden,
  goldenDiagnostics,
  negativeCases,
  optionsKeyOf,
} from "../language-service/negative-fixtures.js";
import { projectWith, TS7, tsconfig } from "../ts7/project.js";
import { LspClient } from "./lsp-client.js";

// The compiler's negative fixtures opened in `toolwright lsp` on TypeScript 7: it must
// publish exactly the diagnostics the build reports (the goldens in expected.json), as
// the tsserver plugin does on TypeScript 5 (test/language-service/fixtures.test.ts).
// Hints (TW990100) are the editor's own, which the plugin gives as suggestions apart.

// One project (and one server) per distinct options.json, as the build compiles them, each case in its own folder.
const projects = new Map<string, { root: string; lsp?: LspClient }>();
const placed = new Map<string, { dir: string; key: string }>();
for (const name of negativeCases) {
  const key = optionsKeyOf(name);
  let project = projects.get(key);
  if (!project) {
    const plugin = JSON.parse(key) as Record<string, unknown>;
    project = { root: projectWith("lsp-fixtures", TS7, { "tsconfig.json": tsconfig(plugin) }) };
    projects.set(key, project);
  }
  const dir = path.join(project.root, "src", name);
  cpSync(path.join(FIXTURES, name), dir, { recursive: true, filter: (from) => !GOLDEN_ONLY.has(path.basename(from)) });
  placed.set(name, { dir, key });
}

afterAll(async () => {
  for (const project of projects.values()) {
    await project.lsp?.stop();
    removeTempProject(project.root);
  }
});

async function serverFor(key: string): Promise<LspClient> {
  const project = projects.get(key);
  if (!project) throw new Error(`no project for ${key}`);
  if (!project.lsp) {
    project.lsp = new LspClient(project.root);
    await project.lsp.initialize(project.root);
  }
  return project.lsp;
}

describe("toolwright lsp publishes what the build reports, on the compiler's negative fixtures", () => {
  it.each(negativeCases)("%s", async (name) => {
    const { dir, key } = placed.get(name) ?? { dir: "", key: "" };
    const golden = goldenDiagnostics(name);
    expect(golden, `${name} has no expected.json (see test/README.md)`).toBeDefined();
    const lsp = await serverFor(key);
    const files = readdirSync(dir).filter((f) => f.endsWith(".ts"));
    for (const file of files) await lsp.open(path.join(dir, file), readFileSync(path.join(dir, file), "utf8"));
    const reported: Golden[] = [];
    for (const file of files) {
      for (const d of await lsp.diagnostics(path.join(dir, file))) {
        if (d.source !== "toolwright" || d.code === 990100) continue;
        // LSP lines are 0-based; the goldens' are 1-based, as the build prints them.
        const message = typeof d.message === "string" ? d.message : d.message.value;
        reported.push({ file, line: d.range.start.line + 1, code: Number(d.code), message });
      }
    }
    expect(golden?.length).toBeGreaterThan(0);
    expect(reported.sort(byPlace)).toEqual([...(golden ?? [])].sort(byPlace));
  });
});
