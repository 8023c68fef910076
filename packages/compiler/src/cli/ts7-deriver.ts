import { loadTs7, type Ts7Modules } from "../backend/ts7/ts7-api.js";
import type { ApiProcessSettings, StartedApi } from "../backend/ts7/ts7-api-process.js";
import { type FileChanges, Ts7Session, type Ts7Snapshot } from "../backend/ts7/ts7-session.js";
import { Derivation } from "../derivation.js";
import type { CompilerOptions } from "../options.js";
import type { FileResult, GenCache } from "./gen-cache.js";
import { countOf, type Progress } from "./progress.js";
import { sitesOf } from "./project-tools.js";

/** Files are derived in about this many batches, so the progress line moves. */
const PROGRESS_STEPS = 10;

/** What one derivation through the API gave: the program's own files, and the results of those derived again. */
export interface Ts7Derived {
  readonly snapshot: Ts7Snapshot;
  /** The project's files (the generated module left out). */
  readonly names: readonly string[];
  /** Every file's result: from the cache where nothing it reaches changed, else derived now. */
  readonly results: ReadonlyMap<string, FileResult>;
  /** How many files were derived again. */
  readonly derived: number;
}

/** What one derivation is told: the run's own output, to leave out, and who hears of its progress and results. */
export interface DeriveOptions {
  /** The generated module: this run's output, not one of its inputs. */
  readonly generated?: string | undefined;
  readonly progress?: Progress | undefined;
  readonly onResult?: ((file: string, result: FileResult) => void) | undefined;
}

/**
 * The half of a TypeScript 7 project run that needs TypeScript: one long-lived API process
 * (opened on first use, handed file changes after that) and the derivation of the files the
 * cache cannot answer. A module of its own, loaded by the first run the cache does not
 * answer: a run answered from the cache loads neither TypeScript's API nor the derivation.
 */
export class Ts7Deriver {
  private session: Ts7Session | undefined;
  private snapshot: Ts7Snapshot | undefined;
  private modules: Ts7Modules | undefined;

  /** `started`: the process the first open takes over, started before this module loaded. */
  constructor(
    private readonly settings: {
      readonly typescript: string;
      readonly root: string;
      readonly options: CompilerOptions;
      /** How the process starts, asked at each start (the generated module's stand-in may change). */
      readonly process: () => ApiProcessSettings;
    },
    private started?: StartedApi,
  ) {}

  /**
   * Brings the cache up to the program after `changes` (undefined: read the project again)
   * and derives the files whose key changed, keeping their results in the cache. `onResult`
   * hears each file's result as soon as the run has it (from the cache, or derived).
   */
  derive(
    cache: GenCache,
    changes: FileChanges | undefined,
    { generated, progress, onResult }: DeriveOptions = {},
  ): Ts7Derived {
    const snapshot = this.open(changes);
    const { backend } = snapshot;
    // The generated module is this run's output, not one of its inputs.
    const names = snapshot.fileNames.filter((name) => name !== generated);
    cache.update(backend, names);
    // Site finding reads the unchanged files' imports from the cache: only the files derived are parsed.
    const derivation = new Derivation(backend, cache.moduleFacts(backend));
    const results = new Map<string, FileResult>();
    const have = (name: string, result: FileResult) => {
      results.set(name, result);
      onResult?.(name, result);
    };
    const pending = names.filter((name) => {
      const cached = cache.cached(name);
      if (cached) have(name, cached);
      return !cached;
    });
    const step = Math.max(1, Math.ceil(pending.length / PROGRESS_STEPS));
    for (let from = 0; from < pending.length; from += step) {
      const batch = pending.slice(from, from + step);
      progress?.update(`deriving specs, ${countOf(from + batch.length, pending.length, "changed files")}`);
      const files = batch.flatMap((name) => backend.sourceFile(name) ?? []);
      const derived = derivation.deriveFiles(files, this.settings.options);
      for (const file of files) {
        const result = derived.get(file.fileName);
        const own = result
          ? { ...sitesOf(file, result, derivation, this.settings.root), diagnostics: result.findings }
          : { tools: [], schemas: [], diagnostics: [] };
        cache.keep(file.fileName, own);
        have(file.fileName, own);
      }
    }
    return { snapshot, names, results, derived: pending.length };
  }

  /** The API process's request totals so far. */
  totals(): ReturnType<Ts7Session["timing"]>["totals"] | undefined {
    return this.session?.timing().totals;
  }

  /** Ends the API process, if one was started. */
  close(): void {
    this.started?.close();
    this.started = undefined;
    this.session?.close();
    this.session = undefined;
    this.snapshot = undefined;
  }

  /** The snapshot after `changes`, from the process opened on first use (or taken over, when started). */
  private open(changes: FileChanges | undefined): Ts7Snapshot {
    if (this.session && this.snapshot && changes) {
      this.snapshot = this.session.update(changes);
      return this.snapshot;
    }
    this.session?.close();
    this.session = undefined;
    // A started process not taken over (the package failed its check) ends with close().
    this.modules ??= loadTs7(this.settings.typescript);
    const start = this.started ?? this.settings.process();
    this.started = undefined;
    this.session = new Ts7Session(this.modules, start);
    this.snapshot = this.session.open();
    return this.snapshot;
  }
}
