import { existsSync, readFileSync, writeFileSync } from "node:fs";
import type { JsonSchema, ToolFlags } from "toolwright";

/** The format version of `toolwright.lock.json`. */
export const LOCKFILE_VERSION = 1;

/** The committed contract of one tool: what a model (and any caller) relies on. */
export interface LockedTool {
  /** The function the tool wraps, used to tell a renamed tool from a removed one. */
  readonly function: string;
  /** The defining file, relative to the project root (lines are left out: they move on every edit). */
  readonly source: string;
  readonly description: string;
  readonly parameters: JsonSchema;
  readonly outputSchema?: JsonSchema;
  readonly flags: ToolFlags;
}

/** The content of `toolwright.lock.json`: every tool of the project, by name. */
export interface Lockfile {
  readonly toolwright: typeof LOCKFILE_VERSION;
  readonly tools: Readonly<Record<string, LockedTool>>;
}

/** Builds a lockfile with tools sorted by name, so the committed file diffs cleanly. */
export function createLockfile(tools: Iterable<[string, LockedTool]>): Lockfile {
  const sorted = [...tools].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { toolwright: LOCKFILE_VERSION, tools: Object.fromEntries(sorted) };
}

/** Reads a lockfile, or returns undefined when there is none yet. */
export function readLockfile(path: string): Lockfile | undefined {
  if (!existsSync(path)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new Error(
      `${path} is not valid JSON (${(error as Error).message}); fix the merge or run 'toolwright check --update' to rewrite it.`,
    );
  }
  const lock = parsed as Partial<Lockfile>;
  if (lock.toolwright !== LOCKFILE_VERSION || typeof lock.tools !== "object" || lock.tools === null) {
    throw new Error(
      `${path} is not a toolwright lockfile of version ${LOCKFILE_VERSION}; run 'toolwright check --update' to rewrite it.`,
    );
  }
  return lock as Lockfile;
}

/** Writes the lockfile as stable, indented JSON with a final newline. */
export function writeLockfile(path: string, lock: Lockfile): void {
  writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
}
