import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  generatedEntries,
  type LoadedProject,
  loadProject,
  openProject,
  type ProjectTool,
  renderGenModule,
} from "@toolwright/compiler/cli";
import { toolwright as esbuildPlugin, SpecService } from "@toolwright/compiler/esbuild";
import { toolwright as vitePlugin } from "@toolwright/compiler/vite";
import { type BuildFailure, build, type Message } from "esbuild";
import { createServer } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  compileFixtures,
  FIXTURES,
  type FixtureDiagnostic,
  type FixtureResult,
  fixtureCases,
  pluginOptionsOf,
  TEST_COMPILER_OPTIONS,
} from "../compiler/compile-fixtures.js";
import { specsIn } from "./specs-in.js";

// The compiler fixture suite through every other build path: each must give exactly the
// specs (and diagnostics) of the tsc path, fixture by fixture. One language service (one
// esbuild build, one Vite server, one gen program) serves all fixtures of a plugin-options
// group. The TypeScript 7 path (the workspace's pinned 7.0.x, through its API) derives each
// group in one API process and must give the same specs in the same order and the same
// diagnostics (file, line, code, text) as TypeScript 5.9's transformer.

/** The pinned TypeScript 7 package of the workspace (`typescript-7`, an alias of typescript@7.0.x). */
const TS7 = path.dirname(createRequire(import.meta.url).resolve("typescript-7/package.json"));

const CWD = process.cwd();
/** This run's own scratch folder (esbuild's outdir, gen's tsconfig files). */
let TMP: string;
const cases = fixtureCases();

/** Fixtures grouped by their plugin options, as the tsc path compiles them. */
function groups(): [Record<string, unknown>, string[]][] {
  const byKey = new Map<string, string[]>();
  for (const name of cases) {
    const key = JSON.stringify(pluginOptionsOf(path.join(FIXTURES, name)));
    byKey.set(key, [...(byKey.get(key) ?? []), name]);
  }
  return [...byKey].map(([key, names]) => [JSON.parse(key) as Record<string, unknown>, names]);
}

const input = (name: string) => path.join(FIXTURES, name, "input.ts");
const fixtureOf = (file: string) => path.relative(FIXTURES, path.resolve(CWD, file)).split(path.sep)[0] ?? "";

interface PathResult {
  specs?: unknown[];
  /** The specs of its `schema<T>()` calls. */
  schemas?: unknown[];
  diagnostics?: FixtureDiagnostic[];
}

let tsc: Map<string, FixtureResult>;
const viaEsbuild = new Map<string, PathResult>();
const viaVite = new Map<string, PathResult & { error?: string }>();
const viaGen = new Map<string, PathResult & { problems?: string[] }>();
const viaTs7 = new Map<string, PathResult>();

function hasErrors(name: string): boolean {
  return (tsc.get(name)?.diagnostics.length ?? 0) > 0;
}

function diagnosticOf(text: string, file: string, line: number): FixtureDiagnostic {
  const code = Number(/^TW(\d+):/.exec(text)?.[1] ?? 0);
  return {
    file: path.relative(path.join(FIXTURES, fixtureOf(file)), path.resolve(CWD, file)),
    line,
    code,
    message: text,
  };
}

async function runEsbuild(service: SpecService, names: string[]): Promise<void> {
  const plugin = () => esbuildPlugin({ service });
  const clean = names.filter((n) => !hasErrors(n));
  if (clean.length > 0) {
    const out = await build({
      entryPoints: clean.map(input),
      outdir: path.join(TMP, "esbuild"),
      outbase: FIXTURES,
      format: "esm",
      write: false,
      logLevel: "silent",
      plugins: [plugin()],
    });
    for (const file of out.outputFiles) {
      viaEsbuild.set(path.basename(path.dirname(file.path)), {
        specs: specsIn(file.text),
        schemas: specsIn(file.text, "$toolwrightSchema"),
      });
    }
  }
  const failing = names.filter(hasErrors);
  if (failing.length === 0) return;
  const errors: Message[] = await build({
    entryPoints: failing.map(input),
    outdir: path.join(TMP, "esbuild"),
    write: false,
    logLevel: "silent",
    plugins: [plugin()],
  }).then(
    // warn-* cases build, with their diagnostics as esbuild warnings.
    (result) => result.warnings,
    (failure: BuildFailure) => [...failure.errors, ...failure.warnings],
  );
  for (const name of failing) viaEsbuild.set(name, { diagnostics: [] });
  for (const error of errors) {
    const file = error.location?.file ?? "";
    viaEsbuild.get(fixtureOf(file))?.diagnostics?.push(diagnosticOf(error.text, file, error.location?.line ?? 0));
  }
}

async function runVite(service: SpecService, names: string[]): Promise<void> {
  const server = await createServer({
    configFile: false,
    root: CWD,
    logLevel: "silent",
    appType: "custom",
    server: { middlewareMode: true, hmr: false, watch: null },
    optimizeDeps: { noDiscovery: true, include: [] },
    plugins: [vitePlugin({ service })],
  });
  try {
    for (const name of names) {
      try {
        const result = await server.transformRequest(`/@fs${input(name)}`);
        const code = result?.code ?? "";
        viaVite.set(name, { specs: specsIn(code), schemas: specsIn(code, "$toolwrightSchema") });
      } catch (error) {
        viaVite.set(name, { error: (error as Error).message });
      }
    }
  } finally {
    await server.close();
  }
}

/** A tsconfig of one options group's fixtures, in its own folder whose `node_modules/typescript` is `typescript`, if given. */
function groupConfig(options: Record<string, unknown>, names: string[], folder: string, typescript?: string): string {
  const dir = path.join(TMP, folder);
  mkdirSync(path.join(dir, "node_modules"), { recursive: true });
  if (typescript) symlinkSync(typescript, path.join(dir, "node_modules", "typescript"), "dir");
  const tsconfig = path.join(dir, "tsconfig.json");
  const compilerOptions = {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    skipLibCheck: true,
    types: [],
    noEmit: true,
    plugins: [{ transform: "@toolwright/compiler/transform", ...options }],
  };
  writeFileSync(tsconfig, JSON.stringify({ compilerOptions, files: names.map(input) }));
  return tsconfig;
}

/** A project's diagnostics located in one fixture, as the goldens record them. */
function diagnosticsIn(project: LoadedProject, name: string): FixtureDiagnostic[] {
  const inFixture = (file: string) => fixtureOf(path.resolve(project.root, file)) === name;
  return project.diagnostics
    .filter((d) => d.file && inFixture(d.file.fileName))
    .map((d) => {
      const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
      return { ...diagnosticOf(d.messageText, d.file?.fileName ?? "", line), code: d.code };
    });
}

/** The specs one call of the gen module registers (JSON plus generated validators, which the JSON comparisons leave out). */
function registered(text: string, call: "registerSpecs" | "registerSchemas"): unknown[] {
  // The module as JavaScript, run with register functions that keep what they are given.
  const run = new Function("registerSpecs", "registerSchemas", `${text.replace(/^import .*$/m, "")}`) as (
    ...register: ((entries: { spec: unknown }[]) => void)[]
  ) => void;
  const found: Record<string, { spec: unknown }[]> = {};
  run(
    (entries) => {
      found.registerSpecs = entries;
    },
    (entries) => {
      found.registerSchemas = entries;
    },
  );
  return (found[call] ?? []).map((e) => e.spec);
}

function runGen(options: Record<string, unknown>, names: string[], index: number): void {
  const project = loadProject(CWD, groupConfig(options, names, `gen-${index}`));
  for (const name of names) {
    const inFixture = (file: string) => fixtureOf(path.resolve(project.root, file)) === name;
    const diagnostics = diagnosticsIn(project, name);
    if (hasErrors(name)) {
      viaGen.set(name, { diagnostics });
      continue;
    }
    const tools: ProjectTool[] = project.tools.filter((t) => inFixture(t.file));
    const schemas = project.schemas.filter((s) => inFixture(s.file));
    const { entries, schemas: named, diagnostics: genProblems } = generatedEntries({ tools, schemas });
    // Read the specs back from the module text gen writes (as JavaScript), not from its input.
    const text = renderGenModule(entries, { typescript: false, schemas: named });
    const problems = genProblems.map((d) => d.messageText);
    viaGen.set(name, {
      specs: registered(text, "registerSpecs"),
      schemas: registered(text, "registerSchemas"),
      diagnostics,
      problems,
    });
  }
}

/** The group through TypeScript 7: the project's own TypeScript is the pinned 7.0.x, used through its API. */
async function runTs7(options: Record<string, unknown>, names: string[], index: number): Promise<void> {
  const project = await openProject(CWD, groupConfig(options, names, `ts7-${index}`, TS7));
  for (const name of names) {
    const inFixture = (file: string) => fixtureOf(path.resolve(project.root, file)) === name;
    const specs = project.tools.filter((t) => inFixture(t.file)).map((t) => t.spec);
    const schemas = project.schemas.filter((s) => inFixture(s.file)).map((s) => s.spec);
    viaTs7.set(name, { specs, schemas, diagnostics: diagnosticsIn(project, name) });
  }
}

/** A schema spec without the call it was derived at: gen registers one of several calls of the same type and name. */
function withoutSource(spec: unknown): unknown {
  return { ...(spec as object), source: undefined };
}

/** Specs in a stable order, one per distinct spec (gen keeps one entry per function and name). */
function distinct(specs: readonly unknown[] | undefined): string[] {
  return [...new Set((specs ?? []).map((s) => JSON.stringify(s)))].sort();
}

beforeAll(async () => {
  TMP = mkdtempSync(path.join(tmpdir(), "toolwright-parity-"));
  tsc = compileFixtures(cases);
  let index = 0;
  for (const [options, names] of groups()) {
    // One language service per options group, shared by the esbuild builds and the Vite server.
    const service = new SpecService({
      cwd: CWD,
      tsconfig: false,
      compilerOptions: TEST_COMPILER_OPTIONS,
      compiler: options,
    });
    await runEsbuild(service, names);
    await runVite(service, names);
    runGen(options, names, index);
    await runTs7(options, names, index++);
  }
}, 600_000);

afterAll(() => {
  rmSync(TMP, { recursive: true, force: true });
});

describe("every build path, TypeScript 7's included, gives the tsc path's specs, fixture by fixture", () => {
  it.each(cases)("%s", (name) => {
    const expected = tsc.get(name);
    if (!expected) throw new Error(`fixture ${name} was not compiled by the tsc path`);
    const esbuildResult = viaEsbuild.get(name);
    const viteResult = viaVite.get(name);
    const genResult = viaGen.get(name);
    const ts7Result = viaTs7.get(name);
    // TypeScript 7: every spec, in source order, and every diagnostic, on every fixture.
    expect(JSON.stringify(ts7Result?.specs)).toBe(JSON.stringify(expected.specs));
    expect(JSON.stringify(ts7Result?.schemas)).toBe(JSON.stringify(expected.schemas));
    expect(ts7Result?.diagnostics).toEqual(expected.diagnostics);
    if (hasErrors(name)) {
      // Same diagnostics (file, line, code, message) on every path; Vite reports them in one error.
      expect(esbuildResult?.diagnostics).toEqual(expected.diagnostics);
      expect(genResult?.diagnostics).toEqual(expected.diagnostics);
      // Warnings leave the build alone: Vite transforms the file with its specs.
      if (name.startsWith("warn-")) expect(JSON.stringify(viteResult?.specs)).toBe(JSON.stringify(expected.specs));
      else for (const d of expected.diagnostics) expect(viteResult?.error).toContain(d.message);
      return;
    }
    // Identical down to key order: the JSON text is what the model receives.
    const specs = JSON.stringify(expected.specs);
    const schemas = JSON.stringify(expected.schemas);
    expect(JSON.stringify(esbuildResult?.specs)).toBe(specs);
    expect(JSON.stringify(esbuildResult?.schemas)).toBe(schemas);
    expect(viteResult?.error).toBeUndefined();
    expect(JSON.stringify(viteResult?.specs)).toBe(specs);
    expect(JSON.stringify(viteResult?.schemas)).toBe(schemas);
    expect(distinct(genResult?.specs)).toEqual(distinct(expected.specs));
    // gen keeps one schema per name option: the same type under one name is one entry.
    expect(distinct(genResult?.schemas?.map(withoutSource))).toEqual(distinct(expected.schemas.map(withoutSource)));
    expect(genResult?.diagnostics).toEqual([]);
    expect(genResult?.problems).toEqual([]);
  });
});
