import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import type { GeneratedSchemaEntry, GeneratedSpecEntry } from "toolwright";
import { DiagnosticCode } from "../diagnostics.js";
import { sameTool } from "../same-tool.js";
import { parseOptions, projectOption, typescriptOption } from "./args.js";
import { type Command, type CommandIO, UsageError } from "./command.js";
import type { FileResult } from "./gen-cache.js";
import type { EntrySources } from "./gen-module.js";
import { compilerFor } from "./open-project.js";
import { progressFor } from "./progress.js";
import type { LoadedProject, ProjectSchema, ProjectTool } from "./project.js";
import type { RunCost, Ts7Project, Ts7ProjectOptions } from "./project-ts7.js";
import { isTypeScriptModule, RenderedModule, writeModule } from "./rendered-module.js";
import { formatDiagnostics, hasErrors, type PrintedDiagnostic } from "./report.js";
import type { ChildDerivation } from "./ts7-child-run.js";
import { tsconfigPath } from "./tsconfig-path.js";

/** The default place of the generated module: `src/` when the project has one, else the project root. */
export function defaultGenPath(root: string): string {
  return existsSync(join(root, "src")) ? join(root, "src", "toolwright.gen.ts") : join(root, "toolwright.gen.ts");
}

function keyText(tool: ProjectTool): string {
  return tool.key.problem === undefined ? `${tool.key.fn}\u0000${tool.key.name ?? ""}` : "";
}

/** A `badSite` error at a tool or a `schema<T>()` call, as the CLI prints it. */
function siteError({ at }: ProjectTool | ProjectSchema, message: string): PrintedDiagnostic {
  const code = DiagnosticCode.badSite;
  return { ...at, code, messageText: `TW${code}: ${message}`, category: "error" };
}

/**
 * The `schema<T>()` entries, sorted by name: one per `name` option (the same name for two
 * different types is an error, as the call could not tell them apart at run time).
 */
function schemaEntries(schemas: readonly ProjectSchema[], diagnostics: PrintedDiagnostic[]): GeneratedSchemaEntry[] {
  const byName = new Map<string, ProjectSchema>();
  for (const schema of schemas) {
    if (schema.key.problem !== undefined) {
      diagnostics.push(siteError(schema, schema.key.problem));
      continue;
    }
    const other = byName.get(schema.key.name);
    if (!other) byName.set(schema.key.name, schema);
    else if (!sameTool(other.spec, schema.spec)) {
      diagnostics.push(
        siteError(
          schema,
          `toolwright gen finds a schema() call's spec by its 'name' option, and ${other.file}:${other.line} already names a schema of another type "${schema.key.name}". Fix: give one of them a distinct { name: "..." }.`,
        ),
      );
    }
  }
  return [...byName.values()].map(schemaEntryOf).sort(({ name: a }, { name: b }) => (a < b ? -1 : a > b ? 1 : 0));
}

/** A `schema<T>()` call's entry in the generated module (its key has no problem). */
function schemaEntryOf(schema: ProjectSchema): GeneratedSchemaEntry {
  return { name: schema.key.problem === undefined ? schema.key.name : "", spec: schema.spec };
}

/** A tool's entry in the generated module: its function's name and `name` option, its spec. */
function entryOf(tool: ProjectTool): GeneratedSpecEntry {
  return {
    fn: tool.key.problem === undefined ? tool.key.fn : "",
    ...(tool.key.problem === undefined && tool.key.name !== undefined ? { name: tool.key.name } : {}),
    spec: tool.spec,
  };
}

/** The generated entries, sorted by key, and the problems that keep a site from being keyed. */
export function generatedEntries(project: Pick<LoadedProject, "tools" | "schemas">): {
  entries: GeneratedSpecEntry[];
  schemas: GeneratedSchemaEntry[];
  diagnostics: PrintedDiagnostic[];
} {
  const diagnostics: PrintedDiagnostic[] = [];
  const byKey = new Map<string, ProjectTool>();
  for (const tool of project.tools) {
    if (tool.key.problem !== undefined) {
      diagnostics.push(siteError(tool, tool.key.problem));
      continue;
    }
    const key = keyText(tool);
    const other = byKey.get(key);
    if (!other) {
      byKey.set(key, tool);
    } else if (!sameTool(other.spec, tool.spec)) {
      const what =
        tool.key.name === undefined
          ? `function "${tool.key.fn}" without a name option`
          : `function "${tool.key.fn}" named "${tool.key.name}"`;
      diagnostics.push(
        siteError(
          tool,
          `toolwright gen keys specs by the function's name and the 'name' option, and ${other.file}:${other.line} already has ` +
            `a different tool for ${what}; give one of them a distinct { name: "..." } option.`,
        ),
      );
    }
  }
  const entries = [...byKey.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, tool]) => entryOf(tool));
  return { entries, schemas: schemaEntries(project.schemas, diagnostics), diagnostics };
}

const usage = `usage: toolwright gen [-p tsconfig.json] [--out <file>] [--check] [--watch] [--typescript <dir>] [--timing] [--no-cache]

Writes the spec of every tool of the project into one generated module (default
src/toolwright.gen.ts, or toolwright.gen.ts without a src folder). Import it once,
first, in your entry point: import "./toolwright.gen.js";
The project's own TypeScript derives the specs: 7.x through its API, else TypeScript 5.9.
On TypeScript 7 results are kept per file (node_modules/.cache/toolwright): a run derives
only the files whose content, imports or reached declarations changed, and none at all
(no TypeScript started) when nothing did.
  -p, --project  the tsconfig.json to read (default: the nearest one)
  --out          where to write the module (.ts or .js)
  --check        write nothing; exit 1 when the module is missing or out of date (for CI)
  -w, --watch    TypeScript 7: keep one API process and write the module again on every change
  --typescript   the folder of a TypeScript 7 package to use instead of the project's
  --timing       TypeScript 7: print the API's requests and where the time went (stderr)
  --no-cache     TypeScript 7: derive every file, and neither read nor write the cache`;

/** What the module holds, for messages: "3 tools", "3 tools and 1 schema". */
function counted(tools: number, schemas: number, noun = "tool"): string {
  const head = `${tools} ${noun}${tools === 1 ? "" : "s"}`;
  return schemas === 0 ? head : `${head} and ${schemas} schema${schemas === 1 ? "" : "s"}`;
}

/** The entries of a derived project, after printing its problems; undefined when one is an error. */
function entriesOf(
  project: LoadedProject,
  io: CommandIO,
): { entries: GeneratedSpecEntry[]; schemas: GeneratedSchemaEntry[] } | undefined {
  const { entries, schemas, diagnostics } = generatedEntries(project);
  const all = [...project.diagnostics, ...diagnostics];
  if (all.length > 0) io.err(formatDiagnostics(all, project.root, false));
  return hasErrors(all) ? undefined : { entries, schemas };
}

/**
 * Writes the module when its text changed and says so on `io.out`: 0, or 1 (and nothing
 * written) on errors. With a cache folder, entries the file on disk was last written from
 * are not rendered again; `sources` may hold entries rendered ahead.
 */
export async function writeGenModule(
  project: LoadedProject,
  out: string,
  io: CommandIO,
  sources?: EntrySources,
): Promise<number> {
  const generated = entriesOf(project, io);
  if (!generated) return 1;
  const { entries, schemas } = generated;
  const typescript = isTypeScriptModule(out);
  const rendered = project.cacheFolder ? new RenderedModule(project.cacheFolder, out) : undefined;
  const key = rendered && RenderedModule.keyOf([entries, schemas], typescript);
  if (!rendered || !key || !rendered.current(out, key)) {
    // The renderer (and the validator generator under it) loads only when there is something to render.
    const { genText } = await import("./gen-module.js");
    const text = genText(entries, out, schemas, sources);
    writeModule(out, text);
    if (rendered && key) rendered.keep(key, text);
  }
  const shown = relative(io.cwd, out) || out;
  io.out(`wrote ${counted(entries.length, schemas.length, "tool spec")} to ${shown}\n`);
  return 0;
}

/** `--timing`: what a run cost, the API process's requests and where the time went. */
export function timingLine(wallMs: number, cost: RunCost | undefined, tools: number, child = false): string {
  const head = `toolwright gen timing: ${Math.round(wallMs)} ms`;
  if (!cost) return `${head} (TypeScript 5: no API process to report)\n`;
  const files = `${cost.derived} of ${cost.files} files derived`;
  const { totals } = cost;
  if (!totals) return `${head}, ${files}, 0 requests (answered from the cache, no TypeScript started)\n`;
  const client = Math.max(wallMs - totals.roundTripMs, 0);
  const perTool = tools > 0 ? (totals.requestCount / tools).toFixed(2) : "-";
  return (
    `${head}, ${files}, ${totals.requestCount} requests (${perTool} per tool), ` +
    `${totals.sourceFilesFetched} syntax trees fetched; ` +
    `client ${Math.round(client)} ms, server ${Math.round(totals.serverTimeMs)} ms, ` +
    `waiting on transport ${Math.round(totals.transportOverheadMs)} ms` +
    `${child ? "; in a child Node process with one V8 background thread" : ""}\n`
  );
}

/** What `gen`'s arguments say: the tsconfig, where the module goes, which compiler, the flags. */
function genSettings(args: readonly string[], io: CommandIO) {
  const values = parseOptions(args, {
    ...projectOption,
    ...typescriptOption,
    out: { type: "string" },
    check: { type: "boolean" },
    watch: { type: "boolean", short: "w" },
    timing: { type: "boolean" },
    "no-cache": { type: "boolean" },
  });
  const config = tsconfigPath(io.cwd, values.project);
  if (!config) throw new Error(`no tsconfig.json found in ${io.cwd} or above; pass one with -p <path>.`);
  const out = values.out ? resolve(io.cwd, values.out) : defaultGenPath(dirname(config));
  const typescript = values.typescript && resolve(io.cwd, values.typescript);
  return { values, config, out, choice: compilerFor(dirname(config), typescript) };
}

type GenSettings = ReturnType<typeof genSettings>;

/** The TypeScript 7 project `gen` derives, as the flags say (`timing` is heard with `--timing` only). */
async function ts7ProjectOf(
  { values, config, out }: GenSettings,
  typescript: string,
  io: CommandIO,
  { timing, ...listeners }: Pick<Ts7ProjectOptions, "progress" | "timing" | "onResult">,
): Promise<Ts7Project> {
  const { Ts7Project } = await import("./project-ts7.js");
  return new Ts7Project(io.cwd, config, typescript, {
    ...listeners,
    cache: values["no-cache"] !== true,
    generated: out,
    ...(values.timing && timing ? { timing } : {}),
    oneRun: true,
  });
}

/**
 * A cold run's derivation in the child Node: this process, idle meanwhile, renders each
 * file's entries as they come, so that only putting the module together is left after.
 */
async function deriveInChildRendering(
  child: typeof import("./ts7-child-run.js"),
  args: readonly string[],
  io: CommandIO,
  out: string,
): Promise<{ parts: ChildDerivation; sources: EntrySources }> {
  const typescript = isTypeScriptModule(out);
  let sources: EntrySources | undefined;
  const early: FileResult[] = [];
  const parts = child.deriveInChild(args, io, (_, result) =>
    sources ? prerender(sources, result, typescript) : early.push(result),
  );
  // The renderer loads while the child starts: no result comes before that.
  const { EntrySources } = await import("./gen-module.js");
  sources = new EntrySources();
  for (const result of early) prerender(sources, result, typescript);
  return { parts: await parts, sources };
}

/** Renders the entries of one file's result ahead of the module, as {@link generatedEntries} will make them. */
function prerender(sources: EntrySources, result: FileResult, typescript: boolean): void {
  for (const tool of result.tools) if (tool.key.problem === undefined) sources.of(entryOf(tool), typescript);
  for (const schema of result.schemas)
    if (schema.key.problem === undefined) sources.of(schemaEntryOf(schema), typescript);
}

/** `toolwright gen` with its arguments: a cold run on TypeScript 7 may derive in a child Node, this process writing the module. */
export async function runGen(args: readonly string[], io: CommandIO): Promise<number> {
  const settings = genSettings(args, io);
  const { values, config, out, choice } = settings;
  if (values.watch) {
    if (values.check) throw new UsageError("--watch and --check do not go together: --check writes nothing.");
    if (choice.kind !== "ts7") {
      throw new UsageError(
        "gen --watch runs on TypeScript 7 (one long-lived API process). On TypeScript 5 use 'toolwright build --watch', or the transformer with tsc --watch.",
      );
    }
    return (await import("./gen-watch.js")).watchGen(
      { cwd: io.cwd, tsconfig: config, typescript: choice.dir, out },
      io,
    );
  }
  const progress = progressFor(io, "toolwright gen");
  const started = performance.now();
  let cost: RunCost | undefined;
  let project: LoadedProject;
  let sources: EntrySources | undefined;
  let derivedInChild = false;
  if (choice.kind === "ts7") {
    const ts7 = await ts7ProjectOf(settings, choice.dir, io, { progress, timing: (run) => (cost = run) });
    const child = ts7.isCold() ? await import("./ts7-child-run.js") : undefined;
    if (child?.derivesInChild(ts7.root, out)) {
      derivedInChild = true;
      const derived = await deriveInChildRendering(child, args, io, out);
      ({ sources } = derived);
      cost = derived.parts.cost;
      project = ts7.loaded(derived.parts.files, derived.parts.results, derived.parts.configDiagnostics);
    } else {
      try {
        project = await ts7.run();
      } finally {
        ts7.close();
      }
    }
  } else {
    project = await (await import("./project.js")).loadProject(io.cwd, config, progress);
  }
  progress.done();
  if (values.timing) io.err(timingLine(performance.now() - started, cost, project.tools.length, derivedInChild));
  if (!values.check) return writeGenModule(project, out, io, sources);
  const generated = entriesOf(project, io);
  if (!generated) return 1;
  const shown = relative(io.cwd, out) || out;
  const current = existsSync(out) ? readFileSync(out, "utf8") : undefined;
  const { genText } = await import("./gen-module.js");
  if (current === genText(generated.entries, out, generated.schemas, sources)) {
    io.out(`${shown} is up to date (${counted(generated.entries.length, generated.schemas.length)}).\n`);
    return 0;
  }
  io.err(`${shown} is ${current === undefined ? "missing" : "out of date"}; run 'toolwright gen' and commit it.\n`);
  return 1;
}

/** What the child of a cold `gen` hands its parent: the project's files in order, the tsconfig's problems, what it cost. */
export interface DerivedForParent {
  readonly files: readonly string[];
  readonly configDiagnostics: LoadedProject["diagnostics"];
  readonly cost?: RunCost;
}

/**
 * `gen` in the child of a cold run: derives the project as {@link runGen} would here,
 * handing each file's result to `onResult` as soon as it has it; the parent writes the module.
 */
export async function deriveForParent(
  args: readonly string[],
  io: CommandIO,
  onResult: (file: string, result: FileResult) => void,
): Promise<DerivedForParent> {
  const settings = genSettings(args, io);
  const { choice } = settings;
  if (choice.kind !== "ts7") throw new Error("a child process derives on TypeScript 7 only.");
  const progress = progressFor(io, "toolwright gen");
  let cost: RunCost | undefined;
  const ts7 = await ts7ProjectOf(settings, choice.dir, io, { progress, timing: (run) => (cost = run), onResult });
  try {
    const { files, configDiagnostics } = await ts7.run();
    return { files, configDiagnostics, ...(cost ? { cost } : {}) };
  } finally {
    ts7.close();
    progress.done();
  }
}

/** `toolwright gen`: writes specs as a module the runtime picks up (for TS 7, SWC, tsx). */
export const gen: Command = {
  summary: "write every tool's spec into a generated module (for TypeScript 7, SWC, tsx)",
  usage,
  run: (args, io) => runGen(args, io),
};
