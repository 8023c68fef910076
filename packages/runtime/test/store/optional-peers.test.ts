import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const dist = fileURLToPath(new URL("../../dist/", import.meta.url));
const entry = (path: string) => JSON.stringify(pathToFileURL(join(dist, path)).href);
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "toolwright-store-peers-"));
  // A resolve hook that refuses both drivers: as if neither optional peer were installed.
  writeFileSync(
    join(dir, "hooks.mjs"),
    `export async function resolve(specifier, context, next) {
  if (specifier === "better-sqlite3" || specifier === "pg") throw new Error("refused " + specifier);
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

describe("better-sqlite3 and pg are optional peers", () => {
  it("the root entry and toolwright/store load without either; an agent runs", async () => {
    const { stdout } = await node(`
      const { Agent } = await import(${entry("index.js")});
      const store = await import(${entry("store/index.js")});
      const { FakeModel } = await import(${entry("testing/index.js")});
      const result = await new Agent({ name: "plain", model: FakeModel.script(["Hello."]) }).run("Hi");
      console.log(result.output, typeof store.startRun);
    `);
    expect(stdout.trim()).toBe("Hello. function");
  });

  it("each store loads its driver when opened (so the check above can fail)", async () => {
    const sqlite = `await (await import(${entry("store/index.js")})).openSqliteStore({ path: ":memory:" });`;
    await expect(node(sqlite)).rejects.toMatchObject({ stderr: expect.stringContaining("refused better-sqlite3") });
    const postgres = `await (await import(${entry("store/index.js")})).openPostgresStore({});`;
    await expect(node(postgres)).rejects.toMatchObject({ stderr: expect.stringContaining("refused pg") });
  });
});
