import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedServer } from "../../scripts/demo/scripted-server.mjs";
import { PackedProject } from "./packed-project.js";

// The README's "Use it in a project", as written: its package.json and tsconfig.json, and
// the "30 seconds" example as src/main.ts, built with `npm run build` and run with
// `npm start`, from the packed packages installed with npm. On TypeScript 7 (the default:
// `toolwright build`, the generated module imported first) once as an ES module package,
// as shown, and once with "type": "commonjs" (what `npm init -y` writes), where the README
// says to put the awaits in an async main(); and on TypeScript 5 as the README's other path
// says (ts-patch, `tspc`, the transformer in tsconfig.json). The model is the scripted
// OpenAI-compatible server on loopback, reached through OPENAI_BASE_URL.

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

interface TsConfig {
  compilerOptions: Record<string, unknown>;
}

interface Manifest {
  type: string;
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

const SECTION = "## Use it in a project";
const compilerManifest = JSON.parse(readFileSync(path.join(ROOT, "packages/compiler/package.json"), "utf8")) as {
  devDependencies: Record<string, string>;
};
/** The TypeScript 7 the workspace pins, one the README's range allows (installed from npm's cache). */
const TS7 = compilerManifest.devDependencies["typescript-7"]?.replace("npm:typescript@", "") ?? "";

/** The README's TypeScript 5 path applied to its project: ts-patch and a 5.x installed, `tspc` builds, the transformer in tsconfig.json. */
function onTypeScript5(manifest: Manifest, tsconfig: string): string {
  const other = README.slice(README.indexOf("**On TypeScript 5.x**"));
  // The README's install line names them (it throws when the block is missing); the newest 5.x and the ts-patch that runs on Node 20 stand in.
  block("**On TypeScript 5.x**", "npm install -D @toolwright/compiler typescript@5 ts-patch @types/node");
  manifest.devDependencies.typescript = "5.9.3";
  manifest.devDependencies["ts-patch"] = "3.3.0";
  manifest.scripts.build = /"build": "([^"]+)"/.exec(other)?.[1] ?? "";
  expect(manifest.scripts.build).toBe("tspc");
  const added = JSON.parse(block("**On TypeScript 5.x**", "// tsconfig.json on TypeScript 5")) as TsConfig;
  const base = JSON.parse(tsconfig) as TsConfig;
  expect(added.compilerOptions.plugins).toBeDefined();
  return JSON.stringify({ ...base, compilerOptions: { ...base.compilerOptions, ...added.compilerOptions } }, null, 2);
}

const project = new PackedProject();
let server: { url: string; close(): Promise<void> };

/** The README's project in `folder`, with `type`, the packed tarballs for toolwright's two packages, and `main`, on TypeScript `ts`. */
async function readmeProject(folder: string, type: string, main: string, ts: 5 | 7): Promise<string> {
  const { runtime, compiler } = await project.pack();
  const dir = path.join(project.dir, folder);
  mkdirSync(path.join(dir, "src"), { recursive: true });
  const manifest = JSON.parse(block(SECTION, "// package.json")) as Manifest;
  expect(manifest.type).toBe("module");
  expect(manifest.scripts.build).toBe("toolwright build");
  manifest.type = type;
  // The README's ranges name versions not published from this checkout: the packed ones stand in.
  manifest.dependencies.toolwright = runtime.replace("file:./", "file:../");
  manifest.devDependencies["@toolwright/compiler"] = compiler.replace("file:./", "file:../");
  let tsconfig = block(SECTION, "// tsconfig.json");
  if (ts === 7) {
    expect(manifest.devDependencies.typescript).toMatch(/^\^7\./);
    manifest.devDependencies.typescript = TS7;
    const first = /first line of `src\/main.ts`:\n`(import "\.\/toolwright\.gen\.js";)`/.exec(README)?.[1];
    expect(first).toBe('import "./toolwright.gen.js";');
    main = `${first}\n${main}`;
  } else {
    tsconfig = onTypeScript5(manifest, tsconfig);
  }
  writeFileSync(path.join(dir, "package.json"), JSON.stringify(manifest, null, 2));
  writeFileSync(path.join(dir, "tsconfig.json"), tsconfig);
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
    ["module", 7, EXAMPLE],
    ["commonjs", 7, COMMONJS_EXAMPLE],
    ["module", 5, EXAMPLE],
  ] as const)(
    'build and run the "30 seconds" example in a "type": "%s" package on TypeScript %s',
    async (type, ts, main) => {
      const dir = await readmeProject(`app-${type}-ts${ts}`, type, main, ts);
      const built = await project.run("npm", ["run", "build"], dir);
      expect(built.stderr).toBe("");
      const generated = path.join(dir, "src/toolwright.gen.ts");
      // TypeScript 7 derives into the generated module; the transformer writes each spec into the emitted file.
      const spec = readFileSync(ts === 7 ? generated : path.join(dir, "dist/main.js"), "utf8");
      expect(spec).toContain(ts === 7 ? '"name": "getWeather"' : '"$toolwright":1,"name":"getWeather"');
      expect(existsSync(generated)).toBe(ts === 7);
      const emitted = readFileSync(path.join(dir, "dist/main.js"), "utf8");
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
