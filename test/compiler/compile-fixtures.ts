import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type ts from "typescript";

const require = createRequire(import.meta.url);
/** TypeScript patched in memory by ts-patch: `createProgram` applies `compilerOptions.plugins`. */
const tsp = require("ts-patch/compiler") as typeof ts;
const transformPath = require.resolve("@toolwright/compiler/transform");

/** The compiler options every test program built in-process starts from (as the fixtures' tsconfig). */
export const TEST_COMPILER_OPTIONS: Readonly<ts.CompilerOptions> = {
  target: tsp.ScriptTarget.ES2022,
  module: tsp.ModuleKind.NodeNext,
  moduleResolution: tsp.ModuleResolutionKind.NodeNext,
  strict: true,
  skipLibCheck: true,
  types: [],
};

/** The fixture folder. */
export const FIXTURES = path.resolve(import.meta.dirname, "../fixtures");

/** A diagnostic as the goldens record it. */
export interface FixtureDiagnostic {
  readonly file: string;
  readonly line: number;
  readonly code: number;
  readonly message: string;
}

/** What compiling one fixture produced. */
export interface FixtureResult {
  /** The specs as JSON (what the goldens record). */
  readonly specs: unknown[];
  /** The same specs as the emitted JavaScript evaluates them, generated validators included. */
  readonly compiledSpecs: unknown[];
  /** The specs written at `schema<T>()` calls, as JSON. */
  readonly schemas: unknown[];
  /** The same, as the emitted JavaScript evaluates them (with their generated validators). */
  readonly compiledSchemas: unknown[];
  readonly diagnostics: FixtureDiagnostic[];
  /** Type errors in the fixture itself (fixtures must be valid TypeScript). */
  readonly typeErrors: string[];
  readonly js: string;
}

/** Every `<case>/input.ts` under test/fixtures. */
export function fixtureCases(): string[] {
  return readdirSync(FIXTURES, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

/** The sample arguments a fixture keeps beside its source (`valid.json`, then `invalid.json`), if any. */
export function fixtureSamples(name: string): unknown[] {
  return ["valid.json", "invalid.json"].flatMap((file) => {
    const full = path.join(FIXTURES, name, file);
    return existsSync(full) ? (JSON.parse(readFileSync(full, "utf8")) as unknown[]) : [];
  });
}

/**
 * The plugin options of the fixture in `dir`: its `options.json`, or none when it has no
 * such file. A file that is not a JSON object fails the run, naming the file: a typo must
 * never quietly compile the case with the default options.
 */
export function pluginOptionsOf(dir: string): Record<string, unknown> {
  const file = path.join(dir, "options.json");
  if (!existsSync(file)) return {};
  let options: unknown;
  try {
    options = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`${file} is not valid JSON (${(error as Error).message}); fix it, or delete it to use no options.`);
  }
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new Error(`${file} must hold one JSON object of plugin options, e.g. { "requireAnnotations": true }.`);
  }
  return options as Record<string, unknown>;
}

/**
 * Reads back every spec literal the transformer wrote into emitted JavaScript, in source
 * order: the tools' (`$toolwright`), or with `marker` the `schema<T>()` calls' (`$toolwrightSchema`).
 */
export function specsIn(js: string, marker: "$toolwright" | "$toolwrightSchema" = "$toolwright"): unknown[] {
  const file = tsp.createSourceFile("out.js", js, tsp.ScriptTarget.ES2022, true);
  const specs: unknown[] = [];
  const visit = (node: ts.Node): void => {
    if (
      tsp.isObjectLiteralExpression(node) &&
      node.properties.some(
        (p) => p.name && (tsp.isIdentifier(p.name) || tsp.isStringLiteral(p.name)) && p.name.text === marker,
      )
    ) {
      specs.push(new Function(`return (${node.getText(file)});`)());
      return;
    }
    tsp.forEachChild(node, visit);
  };
  visit(file);
  return specs;
}

function describe(d: ts.Diagnostic, dir: string): FixtureDiagnostic {
  const file = d.file;
  const line = file && d.start !== undefined ? file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
  return {
    file: file ? path.relative(dir, file.fileName) : "",
    line,
    code: d.code,
    message: tsp.flattenDiagnosticMessageText(d.messageText, "\n"),
  };
}

/** A `program` transformer, as ts-patch calls it (`@toolwright/compiler/transform`'s default export). */
export type ProgramTransformer = (
  program: ts.Program,
  config: Record<string, unknown>,
  extras: { readonly ts: typeof ts; addDiagnostic(diagnostic: ts.Diagnostic): number },
) => ts.TransformerFactory<ts.SourceFile>;

/**
 * Compiles every fixture with the real TypeScript compiler and the real transformer,
 * in one Program per distinct set of plugin options (options.json), emitting in memory.
 * The transformer is the built package's, which ts-patch loads, unless `transform` gives
 * one to call directly (as ts-patch would: its diagnostics join the emit's).
 */
export function compileFixtures(
  names: readonly string[],
  { transform }: { transform?: ProgramTransformer } = {},
): Map<string, FixtureResult> {
  const groups = new Map<string, string[]>();
  for (const name of names) {
    const key = JSON.stringify(pluginOptionsOf(path.join(FIXTURES, name)));
    groups.set(key, [...(groups.get(key) ?? []), name]);
  }
  const results = new Map<string, FixtureResult>();
  for (const [key, group] of groups) {
    const plugin = JSON.parse(key) as Record<string, unknown>;
    const options: ts.CompilerOptions = {
      ...TEST_COMPILER_OPTIONS,
      rootDir: FIXTURES,
      outDir: path.join(FIXTURES, "..", ".tmp", "fixtures-out"),
      ...(transform ? {} : { plugins: [{ transform: transformPath, ...plugin }] as unknown as ts.PluginImport[] }),
    };
    const roots = group.map((name) => path.join(FIXTURES, name, "input.ts"));
    const program = tsp.createProgram(roots, options);
    const js = new Map<string, string>();
    const added: ts.Diagnostic[] = [];
    const before = transform ? [transform(program, plugin, { ts: tsp, addDiagnostic: (d) => added.push(d) })] : [];
    const result = program.emit(
      undefined,
      (fileName, text) => {
        if (fileName.endsWith("input.js")) js.set(path.basename(path.dirname(fileName)), text);
      },
      undefined,
      undefined,
      { before },
    );
    const emitted = { diagnostics: [...result.diagnostics, ...added] };
    const typeErrors = tsp.getPreEmitDiagnostics(program);
    for (const name of group) {
      const dir = path.join(FIXTURES, name);
      const inDir = (d: ts.Diagnostic) => d.file?.fileName.startsWith(`${dir}${path.sep}`) ?? false;
      const text = js.get(name) ?? "";
      const compiledSpecs = specsIn(text);
      const compiledSchemas = specsIn(text, "$toolwrightSchema");
      const asJson = (spec: unknown) => JSON.parse(JSON.stringify(spec)) as unknown;
      results.set(name, {
        specs: compiledSpecs.map(asJson),
        compiledSpecs,
        schemas: compiledSchemas.map(asJson),
        compiledSchemas,
        diagnostics: emitted.diagnostics.filter(inDir).map((d) => describe(d, dir)),
        typeErrors: typeErrors.filter(inDir).map((d) => `${describe(d, dir).line}: ${describe(d, dir).message}`),
        js: text,
      });
    }
  }
  return results;
}
