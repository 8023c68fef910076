import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";

interface Entry {
  /** Stat stamp (mtime in ns and size) of the disk file the entry belongs to. */
  readonly stamp: string;
  /** The build round in which the stamp was last checked. */
  checked: number;
  readonly text: string;
  readonly hash: string;
}

const INSTALLED = /[\\/]node_modules[\\/]/;

function hashText(text: string): string {
  return createHash("sha1").update(text).digest("base64url");
}

function stampOf(fileName: string): string | undefined {
  try {
    const stat = statSync(fileName, { bigint: true });
    return `${stat.mtimeNs}:${stat.size}`;
  } catch {
    return undefined;
  }
}

/**
 * The text of every file the language service reads, versioned by a hash of its
 * content. A touched but unchanged file keeps its version, so TypeScript reuses its
 * parse and the spec cache stays warm; the stat stamp spares re-reading files that
 * did not change on disk.
 */
export class FileVersions {
  private readonly entries = new Map<string, Entry>();
  /** The current build round, or undefined when every read checks the disk. */
  private round: number | undefined;

  /**
   * Starts a build round: until the next one, each file's disk stamp is checked once
   * (a rebuild reads the same types file once per importer, and every root file once
   * more for the language service). Bundlers call it when a build starts.
   */
  startRound(): void {
    this.round = (this.round ?? 0) + 1;
  }

  /**
   * Records the text a bundler handed us for a file (it may differ from the disk when
   * an earlier plugin changed it); it stays the file's text until the disk changes.
   */
  set(fileName: string, text: string): string {
    const previous = this.entries.get(fileName);
    if (previous?.text === text) return previous.hash;
    const hash = hashText(text);
    this.entries.set(fileName, { stamp: stampOf(fileName) ?? "virtual", checked: this.round ?? 0, text, hash });
    return hash;
  }

  /** The current version (content hash) of a file, or undefined when it does not exist. */
  version(fileName: string): string | undefined {
    return this.read(fileName)?.hash;
  }

  /** The current text of a file, or undefined when it does not exist. */
  text(fileName: string): string | undefined {
    return this.read(fileName)?.text;
  }

  private read(fileName: string): Entry | undefined {
    const previous = this.entries.get(fileName);
    // Installed packages and TypeScript's own libs do not change while a bundler runs:
    // not stat-ing them keeps each rebuild's version check proportional to the project.
    if (previous && INSTALLED.test(fileName)) return previous;
    if (previous && this.round !== undefined && previous.checked === this.round) return previous;
    const stamp = stampOf(fileName);
    if (stamp === undefined) {
      if (previous?.stamp === "virtual") return previous;
      this.entries.delete(fileName);
      return undefined;
    }
    if (previous?.stamp === stamp) {
      previous.checked = this.round ?? 0;
      return previous;
    }
    const text = readFileSync(fileName, "utf8");
    const hash = previous?.text === text ? previous.hash : hashText(text);
    const entry: Entry = { stamp, checked: this.round ?? 0, text, hash };
    this.entries.set(fileName, entry);
    return entry;
  }
}
