import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { FileOverlay } from "../backend/ts7/ts7-api-process.js";
import { buildStamp, contentHash, type GenCache } from "./gen-cache.js";

/**
 * What a TypeScript 7 API process deriving specs reads in place of a rendering of the
 * generated module: what every rendering references (toolwright) and exports (nothing).
 * The specs of the other files cannot tell them apart, and the process then loads a
 * one-line file instead of megabytes of specs and validators (at 1,000 tools, 3.8 MB that
 * made loading the program take 0.6 s instead of 0.24).
 */
export const RENDERING_STAND_IN = 'import "toolwright";\nexport {};\n';

/**
 * Where a TypeScript 7 API process deriving specs reads the generated module `out` as
 * {@link RENDERING_STAND_IN}: while it holds what toolwright last wrote (`cache.standsIn`).
 * The module is the run's output, and no file's specs depend on which rendering it holds.
 * Undefined when the process reads every file from disk.
 */
export function standInOverlay(cache: GenCache, out: string | undefined): FileOverlay | undefined {
  if (!out || !cache.standsIn(out)) return undefined;
  return (fileName) => (cache.isRendering(fileName) ? RENDERING_STAND_IN : undefined);
}

/** Whether the generated module at `out` is written as TypeScript (`.ts`, `.mts`, ...), else as JavaScript. */
export function isTypeScriptModule(out: string): boolean {
  return /\.[cm]?tsx?$/.test(out);
}

/**
 * Writes the module's `text` to `out` unless the file holds it already: "created" or
 * "changed" when it wrote, undefined when the file was current.
 */
export function writeModule(out: string, text: string): "created" | "changed" | undefined {
  // Compared as bytes, read only when the sizes match: decoding megabytes of a module
  // (3.8 MB at 1,000 tools) to compare it as text cost more than writing it.
  const bytes = Buffer.from(text);
  const size = statSync(out, { throwIfNoEntry: false })?.size;
  if (size === bytes.length && readFileSync(out).equals(bytes)) return undefined;
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, bytes);
  return size === undefined ? "created" : "changed";
}

/**
 * The generated module as last written: for which entries, with which text. A run whose
 * entries are the same, with the file on disk as written, renders and writes nothing.
 */
export class RenderedModule {
  private readonly record: string;

  constructor(folder: string, out: string) {
    this.record = join(folder, `module-${contentHash(out).slice(0, 16)}.json`);
  }

  /** The key of a module's entries (and of the build that renders them). */
  static keyOf(entries: unknown, typescript: boolean): string {
    return contentHash(`${buildStamp()}\u0000${typescript}\u0000${JSON.stringify(entries)}`);
  }

  /** True when `out` holds what these entries render to, as this cache last wrote it. */
  current(out: string, key: string): boolean {
    const kept = this.read();
    return kept?.key === key && existsSync(out) && contentHash(readFileSync(out)) === kept.text;
  }

  /** The content hash of what this cache last wrote to `out`; undefined without a record. */
  written(): string | undefined {
    return this.read()?.text;
  }

  /** The record: the entries' key and the content hash of the text written for them. */
  private read(): { key: string; text: string } | undefined {
    try {
      const { key, text } = JSON.parse(readFileSync(this.record, "utf8")) as { key?: unknown; text?: unknown };
      return typeof key === "string" && typeof text === "string" ? { key, text } : undefined;
    } catch {
      return undefined;
    }
  }

  /** Remembers what `out` now holds for the entries of `key`. */
  keep(key: string, text: string): void {
    mkdirSync(dirname(this.record), { recursive: true });
    writeFileSync(this.record, JSON.stringify({ key, text: contentHash(text) }));
  }
}
