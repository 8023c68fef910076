import { existsSync, readFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import { readSavedRun, type TracedRun } from "toolwright/trace";
import { UsageError } from "./command.js";

/** A saved run read for `trace` and `view`, with the path to show in messages. */
export interface RunFile {
  readonly run: TracedRun;
  /** Absolute path. */
  readonly path: string;
  /** As the user would name it: relative to the working directory. */
  readonly shown: string;
}

/** Reads the saved run a command was given; every problem names the file (a `SavedRunError`). */
export function readRunFile(cwd: string, file: string | undefined, example: string): RunFile {
  if (!file || file.startsWith("-")) {
    throw new UsageError(`name the saved run, e.g. ${example} (write one with JSON.stringify(result)).`);
  }
  const path = resolve(cwd, file);
  const shown = relative(cwd, path) || path;
  if (!existsSync(path)) throw new Error(`${shown}: no such file; pass the JSON a run was saved to.`);
  return { run: readSavedRun(readFileSync(path, "utf8"), shown), path, shown };
}
