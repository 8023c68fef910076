import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedServer } from "../../scripts/demo/scripted-server.mjs";
import { PackedProject } from "./packed-project.js";

// The README's "Use it in a project", as written: its package.json and tsconfig.json, and
// the "30 seconds" example as src/main.ts, built with `npm run build` and run with
// `npm start`, from the packed packages installed with npm. Once as an ES module package,
// as shown, and once with "type": "commonjs" (what `npm init -y` writes), where the README
// says to put the awaits in an async main(). The model is the scripted OpenAI-compatible
// server on loopback, reached through OPENAI_BASE_URL.

const ROOT = path.resolve(import.meta.dirname, "../..");
const README = readFileSync(path.join(ROOT, "README.md"), "utf8");

/** The body of the README's fenced block whose first line is `firstLine` (that line dropped), in `section`. */
function block(section: string, firstLine: string): string {
  const text = README.slice(README.indexOf(section));
  for (const [, body] of text.matchAll(/```\w*\n([\s\S]*?)```/g)) {
    if (body?.startsWith(firstLine)) return body.slice(body.indexOf("\n") + 1);
  }
  throw new Error(`README.md has no block starting with "${firstLine}" under "${section}"`);
}

/** The README's first fenced block under `section`. */
function firstBlock(section: string): string {
  const body = /```\w*\n([\s\S]*?)```/.exec(README.slice(README.indexOf(section)))?.[1];
  if (!body) throw new Error(`README.md has no block under "${section}"`);
  return body;
}

interface Manifest {
  type: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

const project = new PackedProject();
let server: { url: string; close(): Promise<void> };

/** The README's project in `folder`, with `type`, the packed tarballs for toolwright's two packages, and `main`. */
async function readmeProject(folder: string, type: string, main: string): Promise<string> {
  const { runtime, compiler } = await project.pack();
  const dir = path.join(project.dir, folder);
  mkdirSync(path.join(dir, "src"), { recursive: true });
  const manifest = JSON.parse(block("## Use it in a project", "// package.json")) as Manifest;
  expect(manifest.type).toBe("module");
  manifest.type = type;
  // The README's ranges name versions not published from this checkout: the packed ones stand in.
  manifest.dependencies.toolwright = runtime.replace("file:./", "file:../");
  manifest.devDependencies["@toolwright/compiler"] = compiler.replace("file:./", "file:../");
  writeFileSync(path.join(dir, "package.json"), JSON.stringify(manifest, null, 2));
  writeFileSync(path.join(dir, "tsconfig.json"), block("## Use it in a project", "// tsconfig.json"));
  writeFileSync(path.join(dir, "src/main.ts"), main);
  await project.run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=warn"], dir);
  return dir;
}

const EXAMPLE = firstBlock("## 30 seconds");
// The README's advice for CommonJS: the awaits in an async main(), called.
const awaits = EXAMPLE.indexOf("const result = await");
const COMMONJS_EXAMPLE = `${EXAMPLE.slice(0, awaits)}async function main(): Promise<void> {\n${EXAMPLE.slice(awaits)}}\n\nvoid main();\n`;

beforeAll(async () => {
  server = await startScriptedServer();
}, 60_000);

afterAll(async () => {
  await server?.close();
  project.remove();
});

describe("the README's project files", () => {
  it.each([
    ["module", EXAMPLE],
    ["commonjs", COMMONJS_EXAMPLE],
  ])(
    'build and run the "30 seconds" example in a "type": "%s" package',
    async (type, main) => {
      const dir = await readmeProject(`app-${type}`, type, main);
      const built = await project.run("npm", ["run", "build"], dir);
      expect(built.stderr).toBe("");
      const emitted = readFileSync(path.join(dir, "dist/main.js"), "utf8");
      expect(emitted).toContain('"$toolwright":1,"name":"getWeather"');
      expect(emitted.includes('require("toolwright")')).toBe(type === "commonjs");
      const started = await project.run("npm", ["start", "--silent"], dir, {
        OPENAI_API_KEY: "test-key",
        OPENAI_BASE_URL: server.url,
      });
      expect(started.stdout.trim()).toMatch(/^[A-Z].+/);
    },
    600_000,
  );
});
