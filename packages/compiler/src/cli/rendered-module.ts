import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { buildStamp, contentHash } from "./gen-cache.js";

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
    try {
      const { key: kept, text } = JSON.parse(readFileSync(this.record, "utf8")) as { key: string; text: string };
      return kept === key && existsSync(out) && contentHash(readFileSync(out)) === text;
    } catch {
      return false;
    }
  }

  /** Remembers what `out` now holds for the entries of `key`. */
  keep(key: string, text: string): void {
    mkdirSync(dirname(this.record), { recursive: true });
    writeFileSync(this.record, JSON.stringify({ key, text: contentHash(text) }));
  }
}
