import type * as Sync from "typescript-7/unstable/sync";
import type { PrintedDiagnostic } from "../../cli/report.js";
import { Derivation } from "../../derivation.js";
import { isDeclarationFileName } from "../declaration-file-name.js";
import type { Ts7Modules } from "./ts7-api.js";
import { type ApiProcessSettings, type FileOverlay, killApiProcess, StartedApi, spawnApi } from "./ts7-api-process.js";
import { Ts7Backend } from "./ts7-backend.js";

/** One snapshot of a TypeScript 7 project, ready to derive from. */
export interface Ts7Snapshot {
  readonly backend: Ts7Backend;
  /** The derivation of this snapshot's program, made on first use. */
  readonly derivation: Derivation;
  /**
   * The project's own files: its tsconfig's root files that are no declaration files, by
   * name. Each is parsed on use (`backend.sourceFile`): fetching a syntax tree over IPC
   * costs about a millisecond per file, and a rerun reads only the files that changed.
   */
  readonly fileNames: readonly string[];
  /** Problems in the tsconfig TypeScript reports (unknown options, no inputs, ...). */
  readonly configDiagnostics: readonly PrintedDiagnostic[];
  /** The compiler options TypeScript parsed from the tsconfig. */
  readonly compilerOptions: Readonly<Record<string, unknown>>;
  /** What `tsc` reports before emitting: options, syntax, global and type errors, sorted by file and position. */
  typeDiagnostics(): PrintedDiagnostic[];
}

export type { FileOverlay };

/** Files changed on disk (or in the {@link FileOverlay}) since the last snapshot, absolute paths. */
export interface FileChanges {
  readonly changed?: readonly string[];
  readonly created?: readonly string[];
  readonly deleted?: readonly string[];
}

/**
 * One long-lived TypeScript 7 API process (`typescript/unstable/sync`) holding one project,
 * for a single derivation (`toolwright gen`) or many (`gen --watch`, an editor): {@link open}
 * loads the project, {@link update} hands the process the files that changed and gives the
 * next snapshot, whose backend re-asks only what that snapshot can answer differently. It
 * starts the process, or takes over one started earlier ({@link StartedApi}).
 *
 * @example
 * ```ts
 * const session = new Ts7Session(loadTs7(dir), { cwd, tsconfig });
 * let snapshot = session.open();
 * snapshot = session.update({ changed: ["/app/src/tools.ts"] });
 * session.close();
 * ```
 */
export class Ts7Session {
  private readonly api: Sync.API;
  private readonly settings: ApiProcessSettings;
  private snapshot: Sync.Snapshot | undefined;

  /** `start`: the process's settings, or a process started with them. */
  constructor(
    private readonly modules: Ts7Modules,
    start: ApiProcessSettings | StartedApi,
  ) {
    const started = start instanceof StartedApi ? start : undefined;
    this.settings = started ? started.settings : (start as ApiProcessSettings);
    this.api = started?.adopt(modules.sync) ?? spawnApi(this.settings, (options) => new modules.sync.API(options));
  }

  /** Loads the project and returns its first snapshot. */
  open(): Ts7Snapshot {
    return this.take(this.api.updateSnapshot({ openProject: this.settings.tsconfig }));
  }

  /** Tells the process which files changed and returns the snapshot after them. */
  update(changes: FileChanges): Ts7Snapshot {
    const fileChanges = {
      ...(changes.changed?.length ? { changed: [...changes.changed] } : {}),
      ...(changes.created?.length ? { created: [...changes.created] } : {}),
      ...(changes.deleted?.length ? { deleted: [...changes.deleted] } : {}),
    };
    return this.take(this.api.updateSnapshot({ fileChanges }));
  }

  /** Requests, bytes and time of the process so far (with `collectTiming`). */
  timing(): Sync.TimingInfo {
    return this.api.getTimingInfo();
  }

  /** Ends the API process. */
  close(): void {
    this.snapshot?.dispose();
    this.snapshot = undefined;
    // Nothing is left to ask once the snapshot is disposed.
    killApiProcess(this.api);
    this.api.close();
  }

  private take(next: Sync.Snapshot): Ts7Snapshot {
    this.snapshot?.dispose();
    this.snapshot = next;
    const project = next.getProject(this.settings.tsconfig);
    if (!project)
      throw new Error(`TypeScript ${this.modules.version} did not load the project ${this.settings.tsconfig}.`);
    const backend = new Ts7Backend(this.modules, project, this.settings.cwd, this.settings.overlay);
    const fileNames = project.rootFiles.filter((name) => !isDeclarationFileName(name));
    const { program } = project;
    const configDiagnostics = program.getConfigFileParsingDiagnostics().map((d) => backend.printed(d));
    const typeDiagnostics = () => {
      const found = [
        ...program.getProgramDiagnostics(),
        ...program.getSyntacticDiagnostics(),
        ...program.getGlobalDiagnostics(),
        ...program.getSemanticDiagnostics(),
      ];
      const seen = new Set<string>();
      const distinct = found.filter((d) => {
        const key = `${d.fileName}\u0000${d.pos}\u0000${d.code}\u0000${d.text}`;
        return !seen.has(key) && seen.add(key) !== undefined;
      });
      distinct.sort((a, b) =>
        (a.fileName ?? "") !== (b.fileName ?? "") ? ((a.fileName ?? "") < (b.fileName ?? "") ? -1 : 1) : a.pos - b.pos,
      );
      return distinct.map((d) => backend.printed(d));
    };
    let derivation: Derivation | undefined;
    return {
      backend,
      get derivation() {
        derivation ??= new Derivation(backend);
        return derivation;
      },
      fileNames,
      configDiagnostics,
      compilerOptions: project.compilerOptions as Readonly<Record<string, unknown>>,
      typeDiagnostics,
    };
  }
}
