import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PackedProject } from "./packed-project.js";

// The README's default project: TypeScript 7 and the packed packages, installed with npm as
// the README says (`npm install -D @toolwright/compiler typescript`, the 7.0.x the workspace
// pins standing in for the newest). `typescript` is a peer of @toolwright/compiler, so npm
// installs no TypeScript 5 anywhere; `toolwright gen` and `build` derive through TypeScript
// 7's API, the project's `tsc` compiles, and node runs the result.

const ROOT = path.resolve(import.meta.dirname, "../..");
const compilerManifest = JSON.parse(readFileSync(path.join(ROOT, "packages/compiler/package.json"), "utf8")) as {
  devDependencies: Record<string, string>;
};
const TS7 = compilerManifest.devDependencies["typescript-7"]?.replace("npm:typescript@", "") ?? "";

const TOOLS = `import { tool } from "toolwright";

/**
 * Current temperature in a city, for travel planning.
 * @param city City name, e.g. "Paris".
 */
function getTemperature(city: string, units: "celsius" | "fahrenheit" = "celsius"): string {
  return \`\${city}: 21 \${units}\`;
}

export const temperature = tool(getTemperature, { readOnly: true });
`;

const MAIN = `import "./toolwright.gen.js";
import { temperature } from "./tools.js";

const result = await temperature.invoke({ city: "Paris" });
console.log(JSON.stringify({ name: temperature.name, units: temperature.parameters.properties, value: result.value }));
`;

const EXPECTED = {
  name: "getTemperature",
  units: {
    city: { type: "string", description: 'City name, e.g. "Paris".' },
    units: { type: "string", enum: ["celsius", "fahrenheit"], default: "celsius" },
  },
  value: "Paris: 21 celsius",
};

/** Every package.json of a package named `typescript` under `folder`'s node_modules, at any depth. */
function typescriptManifests(folder: string): { file: string; version: string }[] {
  const found: { file: string; version: string }[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name === ".bin") continue;
      const child = path.join(dir, entry.name);
      const manifest = path.join(child, "package.json");
      if (existsSync(manifest)) {
        const { name, version } = JSON.parse(readFileSync(manifest, "utf8")) as { name?: string; version: string };
        if (name === "typescript") found.push({ file: path.relative(folder, manifest), version });
      }
      walk(child);
    }
  };
  walk(path.join(folder, "node_modules"));
  return found;
}

const project = new PackedProject();
const bin = (): string => path.join(project.dir, "node_modules/@toolwright/compiler/dist/cli/bin.js");

beforeAll(async () => {
  const { runtime, compiler } = await project.pack();
  project.write(
    "package.json",
    JSON.stringify({ name: "outside-ts7", private: true, type: "module", dependencies: { toolwright: runtime } }),
  );
  project.write(
    "tsconfig.json",
    JSON.stringify({
      compilerOptions: {
        target: "es2022",
        module: "nodenext",
        strict: true,
        skipLibCheck: true,
        types: [],
        rootDir: "src",
        outDir: "dist",
      },
      include: ["src"],
    }),
  );
  project.write("src/tools.ts", TOOLS);
  project.write("src/main.ts", MAIN);
  await project.run("npm", [
    "install",
    "-D",
    compiler,
    `typescript@${TS7}`,
    "--prefer-offline",
    "--no-audit",
    "--no-fund",
    "--loglevel=warn",
  ]);
}, 600_000);

afterAll(() => project.remove());

describe(`a TypeScript 7 project (typescript@${TS7}) installed from the packed packages`, () => {
  it("has TypeScript 7 as its typescript, and no TypeScript 5 and no ts-patch anywhere", () => {
    expect(TS7).toMatch(/^7\.0\.\d+$/);
    const resolved = createRequire(path.join(project.dir, "package.json")).resolve("typescript/package.json");
    expect(JSON.parse(readFileSync(resolved, "utf8")).version).toBe(TS7);
    const manifests = typescriptManifests(project.dir);
    expect(manifests).toEqual([{ file: path.join("node_modules", "typescript", "package.json"), version: TS7 }]);
    expect(existsSync(path.join(project.dir, "node_modules/ts-patch"))).toBe(false);
  });

  it("loading the compiler's entry points loads no typescript (TypeScript 5's API loads on first use only)", async () => {
    // A require hook sees the compiler's createRequire("typescript"), the only way it loads TypeScript 5.
    const probe = `const Module = require("node:module");
const load = Module._load;
const seen = [];
Module._load = function (request, ...rest) {
  if (request === "typescript" || request.startsWith("typescript/")) seen.push(request);
  return load.call(this, request, ...rest);
};
for (const entry of ["@toolwright/compiler", "@toolwright/compiler/cli", "@toolwright/compiler/transform"]) require(entry);
console.log(JSON.stringify(seen));
`;
    project.write("probe.cjs", probe);
    expect(JSON.parse(await project.node("probe.cjs"))).toEqual([]);
  });

  it("toolwright gen writes the module through TypeScript 7's API, tsc compiles, and node runs it", async () => {
    const gen = await project.run(process.execPath, [bin(), "gen"]);
    expect(gen.stdout).toContain("wrote 1 tool spec to src/toolwright.gen.ts");
    await project.run(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "."]);
    expect(JSON.parse(await project.node("dist/main.js"))).toEqual(EXPECTED);
  });

  it("a cold gen can run in the package's child Node (one V8 background thread) and writes the same module", async () => {
    const module = path.join(project.dir, "src", "toolwright.gen.ts");
    const here = readFileSync(module, "utf8");
    const gen = await project.run(process.execPath, [bin(), "gen", "--no-cache", "--timing"], undefined, {
      TOOLWRIGHT_COLD_CHILD: "1",
    });
    expect(gen.stderr).toContain("; in a child Node process with one V8 background thread\n");
    expect(readFileSync(module, "utf8")).toBe(here);
  });

  it("toolwright build checks, derives and emits with the project's tsc, and node runs it", async () => {
    project.write(
      "tsconfig.build.json",
      JSON.stringify({ extends: "./tsconfig.json", compilerOptions: { outDir: "dist-build" } }),
    );
    await project.run(process.execPath, [bin(), "build", "-p", "tsconfig.build.json"]);
    expect(JSON.parse(await project.node("dist-build/main.js"))).toEqual(EXPECTED);
  });

  it("toolwright print and check derive through TypeScript 7's API too", async () => {
    const print = await project.run(process.execPath, [bin(), "print"]);
    expect(JSON.parse(print.stdout)).toEqual([
      {
        name: EXPECTED.name,
        description: "Current temperature in a city, for travel planning.",
        parameters: expect.objectContaining({ properties: EXPECTED.units }),
      },
    ]);
    const update = await project.run(process.execPath, [bin(), "check", "--update"]);
    expect(update.stdout).toContain("wrote 1 tool contract");
    expect((await project.run(process.execPath, [bin(), "check"])).stderr).toBe("");
  });

  it("the tsc transformer, which needs TypeScript 5's compiler API, fails naming the install that fixes it", async () => {
    const load = project.run(process.execPath, [
      "--input-type=module",
      "-e",
      'const { default: transform } = await import("@toolwright/compiler/transform"); transform({});',
    ]);
    await expect(load).rejects.toThrow(
      `the 'typescript' installed is ${TS7}, which has none. Fix: on TypeScript 7, build with 'toolwright gen' or 'toolwright build' (docs/guides/build-paths.md); for this path, npm install -D typescript@5 ts-patch.`,
    );
  });
});
