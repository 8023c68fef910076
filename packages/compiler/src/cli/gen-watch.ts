import { existsSync, type FSWatcher, watch } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { FileChanges } from "../backend/ts7/ts7-session.js";
import { tsconfigFiles } from "../tsconfig-file.js";
import type { CommandIO } from "./command.js";
import { writeGenModule } from "./gen.js";
import { Ts7Project } from "./project-ts7.js";

/** What `gen --watch` watches and writes. */
export interface GenWatch {
  readonly cwd: string;
  readonly tsconfig: string;
  /** The TypeScript 7 package's folder. */
  readonly typescript: string;
  /** The generated module. */
  readonly out: string;
  /** Stops the watch (the CLI runs until the process is stopped). */
  readonly signal?: AbortSignal;
}

/** How long changes are collected before a run: an editor's save touches several files at once. */
const SETTLE_MS = 40;

/** Source files TypeScript may read; other files (the build's output, logs) never start a run. */
const SOURCE = /\.(?:[cm]?tsx?|json)$/;

/**
 * `toolwright gen --watch` on TypeScript 7: one long-lived API process holds the project;
 * each change on disk is handed to it as a snapshot update (`updateSnapshot` with the files
 * changed, created and deleted), and only the files whose content, imports or reached
 * declarations changed are derived again before the module is written. A tsconfig change
 * reads the project again. Runs until the process (or `signal`) stops it.
 */
export function watchGen(settings: GenWatch, io: CommandIO): Promise<number> {
  const root = dirname(settings.tsconfig);
  const open = () =>
    new Ts7Project(settings.cwd, settings.tsconfig, settings.typescript, { cache: true, generated: settings.out });
  let project = open();
  let configs = new Set(tsconfigFiles(settings.tsconfig));
  const pending = new Map<string, "changed" | "created" | "deleted">();
  let timer: NodeJS.Timeout | undefined;

  // Runs and reloads happen one after another, in the order the changes came: a run may wait
  // on loading the compiler's modules, and the next must not start (or close its project) meanwhile.
  let queue = Promise.resolve();
  const serially = (step: () => void | Promise<void>) => {
    queue = queue.then(step);
  };

  const runOnce = async (changes?: FileChanges) => {
    try {
      await writeGenModule(await project.run(changes), settings.out, io);
    } catch (error) {
      io.err(`toolwright gen: ${(error as Error).message}\n`);
    }
    io.out("watching for changes\n");
  };

  const flush = () => {
    timer = undefined;
    const changes = { changed: [] as string[], created: [] as string[], deleted: [] as string[] };
    let reload = false;
    for (const [file, kind] of pending) {
      if (configs.has(file)) reload = true;
      changes[kind].push(file);
    }
    pending.clear();
    serially(() => {
      if (!reload) return runOnce(changes);
      project.close();
      project = open();
      configs = new Set(tsconfigFiles(settings.tsconfig));
      return runOnce();
    });
  };

  const watcher: FSWatcher = watch(root, { recursive: true }, (_event, name) => {
    if (!name) return;
    const file = resolve(root, name.toString());
    if (file === settings.out || !SOURCE.test(file)) return;
    if (/[\\/](?:node_modules|\.[^\\/]+)[\\/]/.test(file.slice(root.length))) return;
    const before = pending.get(file);
    const now = existsSync(file) ? (before === "deleted" ? "changed" : (before ?? "changed")) : "deleted";
    pending.set(file, now === "changed" && !project.knows(file) ? "created" : now);
    clearTimeout(timer);
    timer = setTimeout(flush, SETTLE_MS);
  });
  for (const config of configs) if (!config.startsWith(join(root, ""))) watchOutside(config);

  serially(() => runOnce());
  return new Promise<number>((done) => {
    const stop = () => {
      clearTimeout(timer);
      watcher.close();
      serially(() => {
        project.close();
        done(0);
      });
    };
    if (settings.signal?.aborted) stop();
    settings.signal?.addEventListener("abort", stop, { once: true });
  });

  /** A config the project extends from outside its folder (a package's): watched on its own. */
  function watchOutside(config: string): void {
    const outside = watch(config, () => {
      pending.set(config, "changed");
      clearTimeout(timer);
      timer = setTimeout(flush, SETTLE_MS);
    });
    settings.signal?.addEventListener("abort", () => outside.close(), { once: true });
  }
}
