import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const run = promisify(execFile);
const dist = fileURLToPath(new URL("../../dist/", import.meta.url));
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "toolwright-otel-peer-"));
  // A resolve hook that refuses @opentelemetry/*: as if the optional peer were not installed.
  writeFileSync(
    join(dir, "hooks.mjs"),
    `export async function resolve(specifier, context, next) {
  if (specifier.startsWith("@opentelemetry/")) throw new Error("refused " + specifier);
  return next(specifier, context);
}\n`,
  );
  writeFileSync(
    join(dir, "register.mjs"),
    `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(join(dir, "hooks.mjs")).href)});\n`,
  );
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Runs an ES module snippet in a fresh Node process where @opentelemetry/* cannot be resolved. */
function node(code: string) {
  return run(process.execPath, ["--import", join(dir, "register.mjs"), "--input-type=module", "-e", code], {
    cwd: dir,
  });
}

describe("@opentelemetry/api is an optional peer", () => {
  it("runs an agent from the root entry without ever resolving it", async () => {
    const { stdout } = await node(`
      const { Agent } = await import(${JSON.stringify(pathToFileURL(join(dist, "index.js")).href)});
      const { FakeModel } = await import(${JSON.stringify(pathToFileURL(join(dist, "testing/index.js")).href)});
      const agent = new Agent({ name: "plain", model: FakeModel.script(["Hello."]) });
      const result = await agent.run("Hi");
      console.log(result.output);
    `);
    expect(stdout.trim()).toBe("Hello.");
  });

  it("is what toolwright/telemetry loads (so the check above can fail)", async () => {
    const code = `await import(${JSON.stringify(pathToFileURL(join(dist, "telemetry/index.js")).href)});`;
    await expect(node(code)).rejects.toMatchObject({ stderr: expect.stringContaining("refused @opentelemetry/api") });
  });
});
