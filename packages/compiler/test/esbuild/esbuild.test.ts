import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type BuildFailure, type BuildResult, build, context, type Plugin } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolwright } from "../../src/esbuild/index.js";
import { SpecService } from "../../src/esbuild/spec-service.js";
import { removeTempProject, tempProject } from "../temp-project.js";

// The esbuild plugin on a real project folder: specs spliced in with a true sourcemap,
// derivation errors as located esbuild errors, the re-export pre-filter rule, and
// rebuilds (context.rebuild and context.watch) that see a changed imported type or TSDoc.

let root: string;
const src = (file: string) => path.join(root, "src", file);
const compilerOptions = { types: [] as string[] };

function writeTypes(units: string, doc = "Temperature units."): void {
  writeFileSync(src("types.ts"), `/** ${doc} */\nexport type Units = ${units};\n`);
}

function writeTools(summary: string): void {
  writeFileSync(
    src("tools.ts"),
    `import { defineTool } from "./lib.js";
import type { Units } from "./types.js";

/**
 * ${summary}
 * @param city City name, e.g. "Paris".
 * @param units Temperature units.
 */
function getTemperature(city: string, units: Units = "celsius"): string {
  return city + units;
}

export const temperature = defineTool(getTemperature); export const marker = "after the splice";
`,
  );
}

type Spec = { description: string; parameters: { properties: { units: { enum: string[] } } } };

function specOf(code: string): Spec {
  const start = code.indexOf('{ "$toolwright"');
  expect(start).toBeGreaterThan(-1);
  let depth = 0;
  for (let i = start; i < code.length; i++) {
    if (code[i] === "{") depth++;
    if (code[i] === "}" && --depth === 0) return new Function(`return (${code.slice(start, i + 1)});`)() as Spec;
  }
  throw new Error("unterminated spec literal");
}

beforeAll(() => {
  root = tempProject("esbuild");
  writeFileSync(
    path.join(root, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { strict: true, module: "NodeNext", moduleResolution: "NodeNext", types: [] } }),
  );
  // `tool` reaches tools.ts only through this local re-export: the pre-filter must follow it.
  writeFileSync(src("lib.ts"), 'export { tool as defineTool } from "toolwright";\n');
  writeFileSync(src("plain.ts"), "export const answer = 42;\n");
  writeTypes('"celsius" | "fahrenheit"');
  writeTools("Current temperature in a city, for travel planning.");
});

afterAll(() => {
  removeTempProject(root);
});

describe("esbuild plugin", () => {
  it("splices the spec into the source, keeping a true sourcemap", async () => {
    const result = await build({
      absWorkingDir: root,
      entryPoints: [src("tools.ts")],
      bundle: true,
      external: ["toolwright"],
      format: "esm",
      write: false,
      sourcemap: "external",
      outfile: path.join(root, "out", "tools.js"),
      logLevel: "silent",
      plugins: [toolwright({ compilerOptions })],
    });
    const js = result.outputFiles.find((f) => f.path.endsWith(".js"))?.text ?? "";
    const map = JSON.parse(result.outputFiles.find((f) => f.path.endsWith(".map"))?.text ?? "{}");
    const spec = specOf(js);
    expect(spec.description).toBe("Current temperature in a city, for travel planning.");
    expect(spec.parameters.properties.units.enum).toEqual(["celsius", "fahrenheit"]);
    // esbuild chained our map: the source it shows is the original file, without the spec.
    const index = (map.sources as string[]).findIndex((s) => s.endsWith("tools.ts"));
    expect(map.sourcesContent[index]).toBe(readFileSync(src("tools.ts"), "utf8"));
  });

  it("reports derivation problems as esbuild errors with file, line and column", async () => {
    writeFileSync(
      src("bad.ts"),
      `import { tool } from "toolwright";

/**
 * Count the atoms in a molecule, exactly.
 * @param atoms Number of atoms.
 */
function countAtoms(atoms: bigint): string {
  return String(atoms);
}

export const count = tool(countAtoms);
`,
    );
    const failure = await build({
      absWorkingDir: root,
      entryPoints: [src("bad.ts")],
      write: false,
      logLevel: "silent",
      plugins: [toolwright({ compilerOptions })],
    }).then(
      () => undefined,
      (e: BuildFailure) => e,
    );
    expect(failure?.errors).toHaveLength(1);
    const [error] = failure?.errors ?? [];
    expect(error?.text).toMatch(/^TW990001: .*bigint/);
    expect(error?.location).toMatchObject({
      line: 7,
      column: 20,
      lineText: "function countAtoms(atoms: bigint): string {",
    });
    expect(error?.location?.file).toMatch(/src[\\/]bad\.ts$/);
    rmSync(src("bad.ts"));
  });

  it("pre-filters by text and imports: re-exporting modules are followed, unrelated files skipped", () => {
    const service = new SpecService({ cwd: root, compilerOptions });
    const text = (f: string) => readFileSync(src(f), "utf8");
    expect(service.mayDefineTools(src("tools.ts"), text("tools.ts"))).toBe(true);
    expect(service.mayDefineTools(src("plain.ts"), text("plain.ts"))).toBe(false);
    expect(service.mayDefineTools(src("types.ts"), text("types.ts"))).toBe(false);
    expect(service.transform(src("plain.ts"), text("plain.ts"))).toBeUndefined();
  });

  it("re-derives on context.rebuild() when an imported type or the TSDoc changes", async () => {
    const ctx = await context({
      absWorkingDir: root,
      entryPoints: [src("tools.ts")],
      bundle: true,
      external: ["toolwright"],
      format: "esm",
      write: false,
      outfile: path.join(root, "out", "rebuild.js"),
      logLevel: "silent",
      plugins: [toolwright({ compilerOptions })],
    });
    try {
      const first = await ctx.rebuild();
      expect(specOf(first.outputFiles?.[0]?.text ?? "").parameters.properties.units.enum).toEqual([
        "celsius",
        "fahrenheit",
      ]);

      writeTypes('"celsius" | "fahrenheit" | "kelvin"');
      const second = await ctx.rebuild();
      expect(specOf(second.outputFiles?.[0]?.text ?? "").parameters.properties.units.enum).toEqual([
        "celsius",
        "fahrenheit",
        "kelvin",
      ]);

      writeTools("Current temperature in a city, measured now.");
      const third = await ctx.rebuild();
      expect(specOf(third.outputFiles?.[0]?.text ?? "").description).toBe(
        "Current temperature in a city, measured now.",
      );
    } finally {
      await ctx.dispose();
      writeTypes('"celsius" | "fahrenheit"');
      writeTools("Current temperature in a city, for travel planning.");
    }
  });

  it("keeps schemas fresh in context.watch() when a type in another file changes", async () => {
    let notify: ((result: BuildResult) => void) | undefined;
    const next = () => new Promise<BuildResult>((resolve) => (notify = resolve));
    const capture: Plugin = { name: "capture", setup: (b) => b.onEnd((result) => notify?.(result)) };
    const ctx = await context({
      absWorkingDir: root,
      entryPoints: [src("tools.ts")],
      bundle: true,
      external: ["toolwright"],
      format: "esm",
      write: false,
      outfile: path.join(root, "out", "watch.js"),
      logLevel: "silent",
      plugins: [toolwright({ compilerOptions }), capture],
    });
    try {
      const initial = next();
      await ctx.watch();
      expect(specOf((await initial).outputFiles?.[0]?.text ?? "").parameters.properties.units.enum).toHaveLength(2);
      const changed = next();
      writeTypes('"celsius" | "fahrenheit" | "rankine"');
      const result = await Promise.race([
        changed,
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error("no rebuild within 30 s")), 30_000)),
      ]);
      expect(specOf(result.outputFiles?.[0]?.text ?? "").parameters.properties.units.enum).toContain("rankine");
    } finally {
      await ctx.dispose();
      writeTypes('"celsius" | "fahrenheit"');
    }
  });
});
