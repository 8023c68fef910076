import { dirname, join } from "node:path";
import { ts7Version } from "../backend/ts7/ts7-api.js";
import { type ApiProcessSettings, StartedApi } from "../backend/ts7/ts7-api-process.js";
import type { FileChanges, Ts7Session } from "../backend/ts7/ts7-session.js";
import type { CompilerOptions } from "../options.js";
import { toolwrightOptionsOf, tsconfigFiles } from "../tsconfig-file.js";
import { buildStamp, cacheFolder, type FileResult, GenCache } from "./gen-cache.js";
import type { Progress } from "./progress.js";
import type { LoadedProject } from "./project.js";
import { RenderedModule, standInOverlay } from "./rendered-module.js";
import type { Ts7Deriver } from "./ts7-deriver.js";

/** How a TypeScript 7 project is derived: where the cache lives, what the run writes itself. */
export interface Ts7ProjectOptions {
  readonly progress?: Progress;
  /** Keep results per file between runs (node_modules/.cache/toolwright); default false. */
  readonly cache?: boolean;
  /** The generated module: left out of the cache's keys, since the run writes it. */
  readonly generated?: string;
  /** What a run cost, reported after each: the API process's request totals, files derived again. */
  readonly timing?: (run: RunCost) => void;
  /** The project runs once and ends (`gen`, not `gen --watch`): its API process is tuned for that ({@link ApiProcessSettings.oneRun}). */
  readonly oneRun?: boolean;
  /** Hears each file's result as soon as a run that starts TypeScript has it (a cold `gen`'s child sends them on). */
  readonly onResult?: (file: string, result: FileResult) => void;
}

/** A run's project, with the pieces it is made of: what a cold `gen`'s child sends its parent beside each file's result. */
export interface Ts7Run extends LoadedProject {
  /** The project's files, in the order their results make up the project. */
  readonly files: readonly string[];
  /** The tsconfig's problems (the first of `diagnostics`). */
  readonly configDiagnostics: LoadedProject["diagnostics"];
}

/** What one run cost: the API's totals (none when the cache answered alone) and how many files were derived. */
export interface RunCost {
  readonly totals?: ReturnType<Ts7Session["timing"]>["totals"];
  readonly derived: number;
  readonly files: number;
}

/** What decides every cached answer: this build of toolwright, the TypeScript release, the options and the tsconfig files. */
function stampOf(version: string, options: CompilerOptions, tsconfig: string): string {
  return GenCache.stampOf([buildStamp(), version, JSON.stringify(options)], tsconfigFiles(tsconfig));
}

/**
 * A TypeScript 7 project derived for the CLI, through one long-lived API process (opened on
 * the first run that needs the compiler), with results kept per file ({@link GenCache}): a
 * run answers from the cache when nothing it depends on changed, and otherwise derives only
 * the files whose content, imports or reached declarations changed. `toolwright gen` runs it
 * once; `gen --watch` runs it again after every change, feeding the process the changed files.
 * The API process and the derivation live in {@link Ts7Deriver}, a module the first run the
 * cache does not answer loads: a run the cache answers loads neither. That run starts the
 * process first ({@link StartedApi}), so the program loads while the modules do.
 */
export class Ts7Project {
  readonly root: string;
  private readonly version: string;
  private readonly options: CompilerOptions;
  private readonly cache: GenCache;
  private deriver: Ts7Deriver | undefined;
  private known: ReadonlySet<string> = new Set();

  constructor(
    private readonly cwd: string,
    private readonly tsconfig: string,
    private readonly typescript: string,
    private readonly settings: Ts7ProjectOptions = {},
  ) {
    this.root = dirname(tsconfig);
    // The API client is loaded (and its version and methods checked) before any run that
    // starts TypeScript; a run the cache answers reads only the version.
    this.version = ts7Version(typescript);
    this.options = toolwrightOptionsOf(tsconfig);
    const folder = settings.cache ? cacheFolder(this.root) : undefined;
    const file = folder && join(folder, `gen-${GenCache.stampOf([tsconfig], []).slice(0, 16)}.json`);
    const out = settings.generated;
    const record = folder && out ? new RenderedModule(folder, out) : undefined;
    this.cache = new GenCache(
      file,
      this.root,
      stampOf(this.version, this.options, tsconfig),
      out ? { file: out, written: () => record?.written() } : undefined,
    );
  }

  /**
   * Derives the project: from the cache alone when nothing changed, else through the API
   * process, given the files changed since the last run (`undefined`: the first run, or
   * unknown changes: the process reads the project again).
   */
  async run(changes?: FileChanges): Promise<Ts7Run> {
    const progress = this.settings.progress;
    this.cache.beginRun();
    if (!this.deriver) {
      progress?.update("reading the cache");
      const unchanged = this.cache.unchanged();
      if (unchanged) {
        const files = this.cache.rootFiles();
        this.known = new Set(files);
        for (const [i, file] of files.entries()) this.settings.onResult?.(file, unchanged[i] as FileResult);
        this.settings.timing?.({ derived: 0, files: unchanged.length });
        return this.loaded(files, unchanged, []);
      }
      const started = StartedApi.start(this.typescript, this.version, this.processSettings());
      try {
        const { Ts7Deriver } = await import("./ts7-deriver.js");
        this.deriver = new Ts7Deriver(
          {
            typescript: this.typescript,
            root: this.root,
            options: this.options,
            process: () => this.processSettings(),
          },
          started,
        );
      } catch (error) {
        started?.close();
        throw error;
      }
    }
    progress?.update("reading the project");
    const { snapshot, names, results, derived } = this.deriver.derive(this.cache, changes, {
      generated: this.settings.generated,
      progress,
      onResult: this.settings.onResult,
    });
    this.known = new Set(names);
    // tsconfig problems are not kept: the next run reports them again.
    if (snapshot.configDiagnostics.length === 0) this.cache.save();
    const totals = this.deriver.totals();
    if (totals && this.settings.timing) this.settings.timing({ totals, derived, files: names.length });
    return this.loaded(
      names,
      names.flatMap((name) => results.get(name) ?? []),
      snapshot.configDiagnostics,
    );
  }

  /** True when the cache holds no earlier run (none stored, another stamp, or the cache off): the next run derives every file. */
  isCold(): boolean {
    return this.cache.isEmpty();
  }

  /** True when the file is one of the project's files in the last run (else a new file is "created"). */
  knows(file: string): boolean {
    return this.known.has(file);
  }

  /** Ends the API process, if one was started. */
  close(): void {
    this.deriver?.close();
    this.deriver = undefined;
  }

  /** How the API process starts: the generated module read as its stand-in while it holds a rendering. */
  private processSettings(): ApiProcessSettings {
    const overlay = standInOverlay(this.cache, this.settings.generated);
    return {
      cwd: this.cwd,
      tsconfig: this.tsconfig,
      ...(this.settings.timing ? { collectTiming: true } : {}),
      ...(overlay ? { overlay } : {}),
      ...(this.settings.oneRun ? { oneRun: true } : {}),
    };
  }

  /** The project made of its files' results, in order, and the tsconfig's problems (a run's, or its child's). */
  loaded(files: readonly string[], results: readonly FileResult[], config: LoadedProject["diagnostics"]): Ts7Run {
    const folder = this.settings.cache ? cacheFolder(this.root) : undefined;
    return {
      ...(folder ? { cacheFolder: folder } : {}),
      files,
      configDiagnostics: config,
      root: this.root,
      tools: results.flatMap((r) => r.tools),
      schemas: results.flatMap((r) => r.schemas),
      diagnostics: [...config, ...results.flatMap((r) => r.diagnostics)],
    };
  }
}

/**
 * {@link LoadedProject} through TypeScript 7's API: the project's own TypeScript (in the
 * package folder `typescript`), one API process for the whole derivation (none when the
 * cache answers), toolwright's options read from the tsconfig file and the configs it extends.
 */
export async function loadTs7Project(
  cwd: string,
  tsconfig: string,
  typescript: string,
  options: Ts7ProjectOptions = {},
): Promise<LoadedProject> {
  const project = new Ts7Project(cwd, tsconfig, typescript, { ...options, oneRun: true });
  try {
    return await project.run();
  } finally {
    project.close();
  }
}
