import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// `ai`, `@openai/agents` and `@langchain/core` are optional peers: only their own subpath
// loads each, and no other entry's types name them.

const run = promisify(execFile);
const dist = fileURLToPath(new URL("../../dist/", import.meta.url));
const entry = (path: string) => JSON.stringify(pathToFileURL(join(dist, path)).href);
const PEERS = ["ai", "@openai/agents", "@langchain/core"];
const ADAPTERS = { ai: "ai-sdk", "@openai/agents": "openai-agents", "@langchain/core": "langchain" } as const;
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "toolwright-adapter-peers-"));
  // A resolve hook that refuses the three peers (and their subpaths): as if none were installed.
  writeFileSync(
    join(dir, "hooks.mjs"),
    `const peers = ${JSON.stringify(PEERS)};
export async function resolve(specifier, context, next) {
  if (peers.some((p) => specifier === p || specifier.startsWith(p + "/"))) throw new Error("refused " + specifier);
  return next(specifier, context);
}\n`,
  );
  writeFileSync(
    join(dir, "register.mjs"),
    `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(join(dir, "hooks.mjs")).href)});\n`,
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function node(code: string) {
  return run(process.execPath, ["--import", join(dir, "register.mjs"), "--input-type=module", "-e", code], {
    cwd: dir,
  });
}

/** The exported subpaths of the package other than the adapters, as `dist/` entry files. */
function otherEntries(): string[] {
  const manifest = JSON.parse(readFileSync(join(dist, "..", "package.json"), "utf8")) as {
    exports: Record<string, string | { default: string }>;
  };
  return Object.values(manifest.exports)
    .flatMap((target) => (typeof target === "object" ? [target.default.replace("./dist/", "")] : []))
    .filter((file) => !file.startsWith("adapters/"));
}

describe("ai, @openai/agents and @langchain/core are optional peers", () => {
  it("every other entry loads without them, and an agent runs", async () => {
    const entries = otherEntries();
    expect(entries).toContain("index.js");
    const { stdout } = await node(`
      for (const file of ${JSON.stringify(entries)}) await import(new URL(file, ${entry("")}).href);
      const { Agent } = await import(${entry("index.js")});
      const { FakeModel } = await import(${entry("testing/index.js")});
      console.log((await new Agent({ name: "plain", model: FakeModel.script(["Hello."]) }).run("Hi")).output);
    `);
    expect(stdout.trim()).toBe("Hello.");
  });

  it.each(PEERS)("%s is what its adapter loads (so the check above can fail)", async (peer) => {
    const code = `await import(${entry(`adapters/${ADAPTERS[peer as keyof typeof ADAPTERS]}/index.js`)});`;
    await expect(node(code)).rejects.toMatchObject({ stderr: expect.stringContaining(`refused ${peer}`) });
  });

  it("no other entry's declarations name them", () => {
    // Every declaration file an entry's types reach, through static, type-only and import() types.
    const reached = new Map<string, string[]>();
    const visit = (file: string): void => {
      if (reached.has(file)) return;
      const { importedFiles } = ts.preProcessFile(readFileSync(join(dist, file), "utf8"), true, true);
      const names = importedFiles.map((f) => f.fileName);
      reached.set(file, names);
      for (const name of names.filter((n) => n.startsWith(".")))
        visit(join(file, "..", name.replace(/\.js$/, ".d.ts")));
    };
    for (const file of otherEntries()) visit(file.replace(/\.js$/, ".d.ts"));
    const naming = [...reached].flatMap(([file, names]) =>
      names
        .filter((name) => PEERS.some((peer) => name === peer || name.startsWith(`${peer}/`)))
        .map((name) => `${file}: ${name}`),
    );
    expect(reached.size).toBeGreaterThan(20);
    expect(naming).toEqual([]);
  });
});
