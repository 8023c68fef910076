import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// One outside project, installed with npm from the PACKED packages, on TypeScript 5.9
// (`typescript` is a peer of @toolwright/compiler: the project's own copy is the one every
// path uses): every build path that does not go through tsc must still give each tool its
// schema. The esbuild plugin, the Vite plugin (in the project's own Vitest), `toolwright
// build` and `toolwright gen` each call a tool and print its schema. The TypeScript 7
// project, with no TypeScript 5 in it, is packed-ts7.test.ts.

const ROOT = path.resolve(import.meta.dirname, "../..");
const PNPM = path.join(ROOT, ".tools/node_modules/.bin/pnpm");
const dir = mkdtempSync(path.join(tmpdir(), "toolwright-paths-"));
const exec = promisify(execFile);

async function run(command: string, args: string[], cwd = dir): Promise<string> {
  try {
    const { stdout } = await exec(command, args, { cwd, encoding: "utf8", maxBuffer: 16 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${command} ${args.join(" ")} failed in ${cwd}:\n${e.stdout ?? ""}\n${e.stderr ?? e.message}`);
  }
}

async function pack(pkg: string, pattern: RegExp): Promise<string> {
  // pnpm pack turns "workspace:*" into the real version; npm pack would not.
  await run(PNPM, ["pack", "--pack-destination", dir], path.join(ROOT, "packages", pkg));
  const file = readdirSync(dir).find((f) => pattern.test(f) && f.endsWith(".tgz"));
  if (!file) throw new Error(`pnpm pack of packages/${pkg} produced no tarball in ${dir}`);
  return `file:./${file}`;
}

function write(file: string, text: string): void {
  mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  writeFileSync(path.join(dir, file), text);
}

const TYPES = `/** Temperature units. */
export type Units = "celsius" | "fahrenheit";
`;

const TOOLS = `import { tool } from "toolwright";
import type { Units } from "./types.js";

/**
 * Current temperature in a city, for travel planning.
 * @param city City name, e.g. "Paris".
 * @param units Temperature units.
 */
function getTemperature(city: string, units: Units = "celsius"): string {
  return \`\${city}: 21 \${units}\`;
}

export const temperature = tool(getTemperature, { readOnly: true });
`;

const MAIN = `import { temperature } from "./tools.js";

const result = await temperature.invoke({ city: "Paris" });
console.log(JSON.stringify({ name: temperature.name, parameters: temperature.parameters, result: result.value }));
`;

const EXPECTED = {
  name: "getTemperature",
  parameters: {
    type: "object",
    properties: {
      city: { type: "string", description: 'City name, e.g. "Paris".' },
      units: {
        type: "string",
        enum: ["celsius", "fahrenheit"],
        description: "Temperature units.",
        default: "celsius",
      },
    },
    required: ["city"],
    additionalProperties: false,
  },
  result: "Paris: 21 celsius",
};

beforeAll(async () => {
  const runtime = await pack("runtime", /^toolwright-\d/);
  const compiler = await pack("compiler", /^toolwright-compiler-\d/);
  write(
    "package.json",
    JSON.stringify({
      name: "outside-build-paths",
      private: true,
      type: "module",
      dependencies: { toolwright: runtime },
      devDependencies: {
        "@toolwright/compiler": compiler,
        typescript: "5.9.3",
        esbuild: "0.28.2",
        vite: "8.3.8",
        vitest: "4.1.12",
        tsx: "4.23.15",
      },
    }),
  );
  write(
    "tsconfig.json",
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        skipLibCheck: true,
        types: [],
        rootDir: "src",
        outDir: "dist",
      },
      include: ["src"],
    }),
  );
  write("src/types.ts", TYPES);
  write("src/tools.ts", TOOLS);
  write("src/main.ts", MAIN);
  await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"]);
}, 600_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("every build path in an outside project installed from the packed packages (typescript 5.9)", () => {
  it("the project's own typescript is the one installed, 5.9, and @toolwright/compiler brings none of its own", async () => {
    const version = await run(process.execPath, ["node_modules/typescript/bin/tsc", "--version"]);
    expect(version).toMatch(/5\.9\.3/);
    expect(existsSync(path.join(dir, "node_modules/@toolwright/compiler/node_modules/typescript"))).toBe(false);
  });

  it("esbuild bundle with @toolwright/compiler/esbuild", async () => {
    write(
      "build.mjs",
      `import { build } from "esbuild";
import { toolwright } from "@toolwright/compiler/esbuild";
await build({ entryPoints: ["src/main.ts"], bundle: true, platform: "node", format: "esm", outfile: "out/bundle.mjs", plugins: [toolwright()] });
`,
    );
    await run(process.execPath, ["build.mjs"]);
    expect(JSON.parse(await run(process.execPath, ["out/bundle.mjs"]))).toEqual(EXPECTED);
  });

  it("the project's own Vitest runs a test file that defines a tool, with @toolwright/compiler/vite", async () => {
    write(
      "vitest.config.ts",
      `import { defineConfig } from "vitest/config";
import { toolwright } from "@toolwright/compiler/vite";
export default defineConfig({ plugins: [toolwright()], test: { include: ["test/**/*.test.ts"] } });
`,
    );
    write(
      "test/tools.test.ts",
      `import { expect, it } from "vitest";
import { tool } from "toolwright";
import { temperature } from "../src/tools.js";

/**
 * Add two numbers, for a quick sanity check.
 * @param a First addend.
 * @param b Second addend.
 */
function add(a: number, b: number): number {
  return a + b;
}

it("defines tools in a test file and calls them", async () => {
  const adder = tool(add);
  expect(adder.parameters).toEqual(${JSON.stringify({
    type: "object",
    properties: {
      a: { type: "number", description: "First addend." },
      b: { type: "number", description: "Second addend." },
    },
    required: ["a", "b"],
    additionalProperties: false,
  })});
  expect((await adder.invoke({ a: 2, b: 3 })).value).toBe(5);
  expect(temperature.parameters).toEqual(${JSON.stringify(EXPECTED.parameters)});
  expect((await temperature.invoke({ city: "Paris" })).value).toBe("Paris: 21 celsius");
});
`,
    );
    const output = await run(process.execPath, ["node_modules/vitest/vitest.mjs", "run"]);
    expect(output).toMatch(/1 passed/);
  });

  it("toolwright build compiles with the transformer, with no patching, and node runs it", async () => {
    write(
      "tsconfig.toolwright.json",
      JSON.stringify({
        extends: "./tsconfig.json",
        compilerOptions: { outDir: "dist-toolwright" },
        files: ["src/main.ts"],
      }),
    );
    await run(process.execPath, [
      "node_modules/@toolwright/compiler/dist/cli/bin.js",
      "build",
      "-p",
      "tsconfig.toolwright.json",
    ]);
    expect(readFileSync(path.join(dir, "dist-toolwright/tools.js"), "utf8")).toContain(
      '{"$toolwright":1,"name":"getTemperature"',
    );
    expect(JSON.parse(await run(process.execPath, ["dist-toolwright/main.js"]))).toEqual(EXPECTED);
  });

  it("tsx runs the sources with the module written by toolwright gen", async () => {
    write("src/entry.ts", 'import "./toolwright.gen.js";\nimport "./main.js";\n');
    const gen = await run(process.execPath, ["node_modules/@toolwright/compiler/dist/cli/bin.js", "gen"]);
    expect(gen).toContain("wrote 1 tool spec to src/toolwright.gen.ts");
    expect(readFileSync(path.join(dir, "src/toolwright.gen.ts"), "utf8")).toContain('"fn": "getTemperature"');
    expect(JSON.parse(await run(process.execPath, ["node_modules/tsx/dist/cli.mjs", "src/entry.ts"]))).toEqual(
      EXPECTED,
    );
  });

  it("the project's tsc compiles it with the generated module, and node runs it", async () => {
    await run(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "."]);
    expect(JSON.parse(await run(process.execPath, ["dist/entry.js"]))).toEqual(EXPECTED);
    // `gen --check` tells CI when the generated module is stale.
    write("src/types.ts", TYPES.replace('"fahrenheit"', '"fahrenheit" | "kelvin"'));
    await expect(
      run(process.execPath, ["node_modules/@toolwright/compiler/dist/cli/bin.js", "gen", "--check"]),
    ).rejects.toThrow(/src\/toolwright\.gen\.ts is out of date; run 'toolwright gen'/);
  });
});
