import { dirname, join } from "node:path";
import { loadTs7, type Ts7Modules, ts7Version } from "../backend/ts7/ts7-api.js";
import { type FileChanges, Ts7Session, type Ts7Snapshot } from "../backend/ts7/ts7-session.js";
import { Derivation } from "../derivation.js";
import type { CompilerOptions } from "../options.js";
import { toolwrightOptionsOf, tsconfigFiles } from "../tsconfig-plugins.js";
import { buildStamp, cacheFolder, type FileResult, GenCache } from "./gen-cache.js";
import { countOf, type Progress } from "./progress.js";
import type { LoadedProject } from "./project.js";
import { sitesOf } from "./project-tools.js";

/** Files are derived in about this many batches, so the progress line moves. */
const PROGRESS_STEPS = 10;

/** How a TypeScript 7 project is derived: where the cache lives, what the run writes itself. */
export interface Ts7ProjectOptions {
  readonly progress?: Progress;
  /** Keep results per file between runs (node_modules/.cache/toolwright); default false. */
  readonly cache?: boolean;
  /** The generated module: left out of the cache's keys, since the run writes it. */
  readonly generated?: string;
  /** What a run cost, reported after each: the API process's request totals, files derived again. */
  readonly timing?: (run: RunCost) => void;
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
 */
export class Ts7Project {
  readonly root: string;
  private readonly options: CompilerOptions;
  private readonly cache: GenCache;
  private session: Ts7Session | undefined;
  private snapshot: Ts7Snapshot | undefined;
  private modules: Ts7Modules | undefined;
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
    const version = ts7Version(typescript);
    this.options = toolwrightOptionsOf(tsconfig);
    const folder = settings.cache ? cacheFolder(this.root) : undefined;
    const file = folder && join(folder, `gen-${GenCache.stampOf([tsconfig], []).slice(0, 16)}.json`);
    const ignored = new Set(settings.generated ? [settings.generated] : []);
    this.cache = new GenCache(file, this.root, stampOf(version, this.options, tsconfig), ignored);
  }

  /**
   * Derives the project: from the cache alone when nothing changed, else through the API
   * process, given the files changed since the last run (`undefined`: the first run, or
   * unknown changes: the process reads the project again).
   */
  run(changes?: FileChanges): LoadedProject {
    const progress = this.settings.progress;
    this.cache.beginRun();
    if (!this.session) {
      progress?.update("reading the cache");
      const unchanged = this.cache.unchanged();
      if (unchanged) {
        this.known = new Set(this.cache.rootFiles());
        this.settings.timing?.({ derived: 0, files: unchanged.length });
        return this.loaded(unchanged, []);
      }
    }
    progress?.update("reading the project");
    const snapshot = this.open(changes);
    const { backend } = snapshot;
    // The generated module is this run's output, not one of its inputs.
    const names = snapshot.fileNames.filter((name) => name !== this.settings.generated);
    this.known = new Set(names);
    this.cache.update(backend, names);
    // Site finding reads the unchanged files' imports from the cache: only the files derived are parsed.
    const derivation = new Derivation(backend, this.cache.moduleFacts(backend));
    const results = new Map<string, FileResult>();
    const pending = names.filter((name) => {
      const cached = this.cache.cached(name);
      if (cached) results.set(name, cached);
      return !cached;
    });
    const step = Math.max(1, Math.ceil(pending.length / PROGRESS_STEPS));
    for (let from = 0; from < pending.length; from += step) {
      const batch = pending.slice(from, from + step);
      progress?.update(`deriving specs, ${countOf(from + batch.length, pending.length, "changed files")}`);
      const files = batch.flatMap((name) => backend.sourceFile(name) ?? []);
      const derived = derivation.deriveFiles(files, this.options);
      for (const file of files) {
        const result = derived.get(file.fileName);
        const own = result
          ? { ...sitesOf(file, result, derivation, this.root), diagnostics: result.findings }
          : { tools: [], schemas: [], diagnostics: [] };
        results.set(file.fileName, own);
        this.cache.keep(file.fileName, own);
      }
    }
    // tsconfig problems are not kept: the next run reports them again.
    if (snapshot.configDiagnostics.length === 0) this.cache.save();
    if (this.session && this.settings.timing) {
      this.settings.timing({ totals: this.session.timing().totals, derived: pending.length, files: names.length });
    }
    return this.loaded(
      names.flatMap((name) => results.get(name) ?? []),
      snapshot.configDiagnostics,
    );
  }

  /** True when the file is one of the project's files in the last run (else a new file is "created"). */
  knows(file: string): boolean {
    return this.known.has(file);
  }

  /** Ends the API process, if one was started. */
  close(): void {
    this.session?.close();
    this.session = undefined;
    this.snapshot = undefined;
  }

  private open(changes: FileChanges | undefined): Ts7Snapshot {
    if (this.session && this.snapshot && changes) {
      this.snapshot = this.session.update(changes);
      return this.snapshot;
    }
    this.session?.close();
    this.modules ??= loadTs7(this.typescript);
    this.session = new Ts7Session(this.modules, {
      cwd: this.cwd,
      tsconfig: this.tsconfig,
      ...(this.settings.timing ? { collectTiming: true } : {}),
    });
    this.snapshot = this.session.open();
    return this.snapshot;
  }

  private loaded(results: readonly FileResult[], config: LoadedProject["diagnostics"]): LoadedProject {
    const folder = this.settings.cache ? cacheFolder(this.root) : undefined;
    return {
      ...(folder ? { cacheFolder: folder } : {}),
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
export function loadTs7Project(
  cwd: string,
  tsconfig: string,
  typescript: string,
  options: Ts7ProjectOptions = {},
): LoadedProject {
  const project = new Ts7Project(cwd, tsconfig, typescript, options);
  try {
    return project.run();
  } finally {
    project.close();
  }
}
