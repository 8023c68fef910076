import { createHash } from "node:crypto";
import {
  type Dirent,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Backend, ProgramFile } from "../backend/backend.js";
import type { LineAndCharacter } from "../backend/syntax.js";
import { declaresGlobalsIn, type ModuleFacts, mentionsToolwright, namesToolwrightIn } from "../module-facts.js";
import type { ProjectSchema, ProjectTool, SiteLocation } from "./project.js";
import type { PrintedDiagnostic } from "./report.js";

// 2: entries keep the `schema<T>()` calls too. 3: nodes keep whether their file declares
// globals, and leave the imports of leaves unset; the program's file names are kept. 4: the
// generated module is a node of the graph, its renderings one content (RENDERING). 5: a key
// holds the digest of the ambient files' hashes, worked out once per run, not their list.
const FORMAT = 5;

/**
 * The content of the generated module, for the cache, while it holds what toolwright last
 * wrote there: every rendering references toolwright alone, declares no globals and exports
 * nothing, so one rendering resolves, and counts in its importers' keys, as any other does.
 * A run that writes new entries then costs the next run nothing (no syntax tree of the
 * module fetched, no importer derived again); an edit by hand is a change like any other.
 */
const RENDERING = "rendering";

/** A position in a file as stored: the file's name and offsets (its text is read again on use). */
interface StoredLocation {
  readonly file: string;
  readonly start: number;
  readonly length: number;
}

interface StoredDiagnostic {
  readonly at?: StoredLocation;
  readonly code: number;
  readonly messageText: string;
  readonly category: PrintedDiagnostic["category"];
}

/** A site as stored: as the CLI uses it, its location by offsets. */
type StoredSite<Site extends { readonly at: SiteLocation }> = Omit<Site, "at"> & { readonly at: StoredLocation };

type StoredTool = StoredSite<ProjectTool>;
type StoredSchema = StoredSite<ProjectSchema>;

/** One file of the import graph: its content hash, what its module references resolve to, whether it declares globals. */
interface StoredNode {
  readonly hash: string;
  /**
   * Resolved imports; unset for leaves (files of installed packages, ambient files: their
   * imports are not followed) and where the compiler did not say.
   */
  readonly imports?: readonly string[];
  /** Whether the file declares globals (`Backend.declaresGlobals`); unset when not asked yet. */
  readonly globals?: boolean;
}

/**
 * What one root file gave as stored: plain JSON, its locations by offsets. The cache keeps it
 * on disk; a cold `gen`'s child sends it to its parent ({@link storedResult}, {@link revivedResult}).
 */
export interface StoredResult {
  readonly tools: readonly StoredTool[];
  readonly schemas: readonly StoredSchema[];
  readonly diagnostics: readonly StoredDiagnostic[];
}

/** What one root file gave, valid while `key` (the hashes of everything it reaches) is the same. */
interface StoredEntry extends StoredResult {
  readonly key: string;
}

interface Stored {
  readonly format: number;
  /** toolwright's build, the TypeScript version and the tsconfig files: any change empties the cache. */
  readonly stamp: string;
  readonly roots: readonly string[];
  /** Program files no root file reaches by imports and that are no default library: they may affect every file. */
  readonly ambient: readonly string[];
  /** The folders under the project root and their entries: a file created or deleted changes it. */
  readonly listing: string;
  /** The hash of the program's file names: another set of files (a package installed) may resolve an import anew. */
  readonly program: string;
  readonly graph: Readonly<Record<string, StoredNode>>;
  readonly entries: Readonly<Record<string, StoredEntry>>;
}

/** What a root file gave: its tools, `schema<T>()` calls and toolwright's diagnostics, as the CLI uses them. */
export interface FileResult {
  readonly tools: readonly ProjectTool[];
  readonly schemas: readonly ProjectSchema[];
  readonly diagnostics: readonly PrintedDiagnostic[];
}

const EXTERNAL = /[\\/]node_modules[\\/]/;

/** What a run read of a file: its content hash (undefined: unreadable) and, for an installed library's, whether it names toolwright. */
interface FileRead {
  readonly hash?: string;
  readonly names?: boolean;
}

/** The nearest node_modules at or above `root`, where caches go (`.cache/toolwright`); undefined without one. */
export function cacheFolder(root: string): string | undefined {
  for (let dir = root; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "node_modules"))) return join(dir, "node_modules", ".cache", "toolwright");
    if (dirname(dir) === dir) return undefined;
  }
}

/** This build of toolwright: a rebuilt compiler answers nothing from an older one's cache. */
export function buildStamp(): string {
  const self = fileURLToPath(import.meta.url);
  return `${self}\u0000${statSync(self).mtimeMs}`;
}

/** A content hash as the caches store it (SHA-1, base64url). */
export function contentHash(text: string | Buffer): string {
  return createHash("sha1").update(text).digest("base64url");
}

function location(at: SiteLocation): StoredLocation {
  return { file: at.file.fileName, start: at.start, length: at.length };
}

/** A file's result as stored: plain JSON, each location by file name and offsets. */
export function storedResult(result: FileResult): StoredResult {
  return {
    tools: result.tools.map(({ at, ...tool }) => ({ ...tool, at: location(at) })),
    schemas: result.schemas.map(({ at, ...schema }) => ({ ...schema, at: location(at) })),
    diagnostics: result.diagnostics.map((d) => ({
      ...(d.file && d.start !== undefined
        ? { at: { file: d.file.fileName, start: d.start, length: d.length ?? 1 } }
        : {}),
      code: d.code,
      messageText: d.messageText,
      category: d.category,
    })),
  };
}

/** A stored result as the CLI uses it: each located file read again, once, for printing. */
export function revivedResult(stored: StoredResult): FileResult {
  const files = new Map<string, NonNullable<PrintedDiagnostic["file"]>>();
  const fileOf = (name: string) => {
    let file = files.get(name);
    if (!file) {
      file = printable(name, existsSync(name) ? readFileSync(name, "utf8") : "");
      files.set(name, file);
    }
    return file;
  };
  const located = (at: StoredLocation): SiteLocation => ({ file: fileOf(at.file), start: at.start, length: at.length });
  return {
    tools: stored.tools.map(({ at, ...tool }) => ({ ...tool, at: located(at) })),
    schemas: stored.schemas.map(({ at, ...schema }) => ({ ...schema, at: located(at) })),
    diagnostics: stored.diagnostics.map(({ at, ...d }) =>
      at ? { ...d, file: fileOf(at.file), start: at.start, length: at.length } : d,
    ),
  };
}

/** A file for printing a diagnostic from its text: name, text and line lookup. */
function printable(fileName: string, text: string): NonNullable<PrintedDiagnostic["file"]> {
  let starts: number[] | undefined;
  return {
    fileName,
    text,
    getLineAndCharacterOfPosition(position: number): LineAndCharacter {
      if (!starts) {
        starts = [0];
        for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
      }
      let low = 0;
      let high = starts.length - 1;
      while (low < high) {
        const mid = (low + high + 1) >> 1;
        if ((starts[mid] as number) <= position) low = mid;
        else high = mid - 1;
      }
      return { line: low, character: position - (starts[low] as number) };
    },
  };
}

/**
 * The per-file cache of `toolwright gen` on TypeScript 7: what each root file of the project
 * gave (its tools, toolwright's diagnostics), keyed by the content hashes of the file, of
 * every project file it imports (at any depth), of the installed `.d.ts` files those reach
 * and of the files that may affect any file (ambient declarations, global augmentations).
 * A run where no hash, no folder listing and no tsconfig changed answers from it without
 * starting TypeScript; otherwise only the files whose key changed are derived again. Kept
 * as one JSON file under node_modules/.cache/toolwright, replaced whole on every write.
 */
export class GenCache {
  private stored: Stored | undefined;
  /** This run's reads of each file, once each (see {@link FileRead}). */
  private readonly reads = new Map<string, FileRead>();
  private graph = new Map<string, StoredNode>();
  private entries = new Map<string, StoredEntry>();
  private roots: readonly string[] = [];
  private ambient: readonly string[] = [];
  /** {@link ambientKey}, this run's. */
  private ambientDigest: string | undefined;
  private listing = "";
  private program = "";
  /** The generated module: out of the listing and the roots, never derived. */
  private readonly ignored: ReadonlySet<string>;

  /**
   * @param file the cache file (undefined: kept in memory only, as `gen --watch` does).
   * @param root the project's folder, whose folders' listings the cache compares.
   * @param stamp what the cache is valid for: toolwright's build, the TypeScript version, the tsconfig files' text.
   * @param generated the generated module, which the run itself writes (left out of the listing and
   * the roots), and the content hash of what toolwright last wrote there (undefined: no record).
   */
  constructor(
    private readonly file: string | undefined,
    private readonly root: string,
    private readonly stamp: string,
    private readonly generated?: { readonly file: string; written(): string | undefined },
  ) {
    this.ignored = new Set(generated ? [generated.file] : []);
    if (!file || !existsSync(file)) return;
    try {
      const stored = JSON.parse(readFileSync(file, "utf8")) as Stored;
      if (stored.format !== FORMAT || stored.stamp !== stamp) return;
      this.stored = stored;
      this.graph = new Map(Object.entries(stored.graph));
      this.entries = new Map(Object.entries(stored.entries));
      this.roots = stored.roots;
      this.ambient = stored.ambient;
      this.listing = stored.listing;
      this.program = stored.program;
    } catch {
      // An unreadable cache is an empty one: it is written again at the end of the run.
    }
  }

  /** The stamp of a run: toolwright's build, the TypeScript version and the text of every tsconfig file involved. */
  static stampOf(parts: readonly string[], files: readonly string[]): string {
    return contentHash(
      [...parts, ...files.map((f) => `${f}\u0000${existsSync(f) ? readFileSync(f, "utf8") : ""}`)].join("\u0001"),
    );
  }

  /** True when `file` is the generated module and holds what toolwright last wrote there (this run's content). */
  isRendering(file: string): boolean {
    return this.generated?.file === file && this.hash(file) === RENDERING;
  }

  /**
   * Whether a run should have the API process read the generated module as a stand-in: it
   * holds a rendering, and the program held it last time (or no run is stored). Reading
   * through the callback costs every file of the program a round trip (about 400 for the
   * bench project), which a module outside the program would not repay.
   */
  standsIn(file: string): boolean {
    return this.isRendering(file) && (!this.stored || this.graph.has(file));
  }

  /** True when no earlier run is stored (no cache file, one of another stamp, or the cache off): every file is derived. */
  isEmpty(): boolean {
    return this.stored === undefined;
  }

  /** The project's files of the last run. */
  rootFiles(): readonly string[] {
    return this.roots;
  }

  /** Starts a run: file contents are read and hashed again, once each. */
  beginRun(): void {
    this.reads.clear();
    this.ambientDigest = undefined;
  }

  /**
   * Every root file's result when nothing the cache depends on changed (no file's content,
   * no folder listing): the run needs no compiler at all. Undefined otherwise.
   */
  unchanged(): FileResult[] | undefined {
    if (!this.stored || this.roots.length === 0) return undefined;
    if (this.listingNow() !== this.listing) return undefined;
    for (const [file, node] of this.graph) if (this.hash(file) !== node.hash) return undefined;
    const results: FileResult[] = [];
    for (const root of this.roots) {
      const entry = this.entries.get(root);
      if (!entry || entry.key !== this.keyOf(root)) return undefined;
      results.push(revivedResult(entry));
    }
    return results;
  }

  /**
   * Brings the import graph up to a program: the files whose content changed since they were
   * stored (or new ones) get their module references resolved again, in one request per
   * level of imports, and are parsed; the others are not parsed at all. A changed folder
   * listing or set of program files resolves every file again (a new file can change what
   * an import means). The generated module counts among the program's files: an import of
   * it that did not resolve before the first run wrote it resolves now.
   */
  update(backend: Backend, roots: readonly string[]): void {
    const listing = this.listingNow();
    const program: readonly ProgramFile[] = backend.programFiles();
    const names = contentHash(
      program
        .map((f) => f.fileName)
        .sort()
        .join("\u0000"),
    );
    const relisted = listing !== this.listing || names !== this.program;
    const next = new Map<string, StoredNode>();
    // The generated module is a node even when nothing imports it: site finding asks where
    // every program file's references lead.
    const generated = program.filter((f) => this.ignored.has(f.fileName)).map((f) => f.fileName);
    let level = [...roots.filter((file) => !this.ignored.has(file)), ...generated];
    while (level.length > 0) {
      const resolve: string[] = [];
      for (const file of level) {
        const old = this.graph.get(file);
        if (EXTERNAL.test(file)) next.set(file, this.leaf(file));
        else if (!relisted && old?.imports && this.isCurrent(file, old)) next.set(file, old);
        else resolve.push(file);
      }
      const targets = resolve.length > 0 ? backend.moduleTargets(resolve) : new Map<string, undefined>();
      for (const file of resolve) {
        const found = targets.get(file);
        next.set(file, {
          hash: this.hash(file) ?? "",
          ...(found ? { imports: [...new Set(found)].sort() } : {}),
          globals: declaresGlobalsIn(backend, file),
        });
      }
      const following = new Set<string>();
      for (const file of level) for (const imported of next.get(file)?.imports ?? []) following.add(imported);
      level = [...following].filter((file) => !next.has(file));
    }
    // Files of the program no import reaches, that are no default library: @types packages,
    // ambient declarations. And any project file declaring globals, which reach every file.
    const ambient = program
      .filter((f) => !f.isDefaultLibrary && !next.has(f.fileName) && !this.ignored.has(f.fileName))
      .map((f) => f.fileName);
    for (const [fileName, node] of next) if (!EXTERNAL.test(fileName) && node.globals) ambient.push(fileName);
    for (const fileName of ambient) if (!next.has(fileName)) next.set(fileName, this.leaf(fileName));
    this.graph = next;
    this.ambient = [...new Set(ambient)].sort();
    this.ambientDigest = undefined;
    this.roots = roots.filter((file) => !this.ignored.has(file));
    this.listing = listing;
    this.program = names;
  }

  /**
   * The graph as {@link ModuleFacts} for finding the sites of the program {@link update} was
   * given: the stored answers of the files it holds (each the compiler's for that content,
   * in this program), the compiler's for the rest. A file's globals learnt here are kept.
   */
  moduleFacts(backend: Backend): ModuleFacts {
    return {
      moduleTargets: (fileNames) => {
        const out = new Map<string, readonly string[] | undefined>();
        const asked: string[] = [];
        for (const fileName of fileNames) {
          const imports = this.graph.get(fileName)?.imports;
          if (imports) out.set(fileName, imports);
          else asked.push(fileName);
        }
        if (asked.length > 0)
          for (const [fileName, targets] of backend.moduleTargets(asked)) out.set(fileName, targets);
        return out;
      },
      declaresGlobals: (fileName) => {
        const node = this.graph.get(fileName);
        if (node?.globals !== undefined) return node.globals;
        const globals = declaresGlobalsIn(backend, fileName);
        if (node) this.graph.set(fileName, { ...node, globals });
        return globals;
      },
      // Every program file but the default libraries was hashed by update(): its bytes were read then.
      namesToolwright: (fileName) => this.reads.get(fileName)?.names ?? namesToolwrightIn(backend, fileName),
    };
  }

  /** The cached result of a root file, if what it reaches is unchanged (after {@link update}). */
  cached(root: string): FileResult | undefined {
    const entry = this.entries.get(root);
    return entry && entry.key === this.keyOf(root) ? revivedResult(entry) : undefined;
  }

  /** Keeps what a root file gave, under the key of what it reaches now. */
  keep(root: string, result: FileResult): void {
    this.entries.set(root, { key: this.keyOf(root), ...storedResult(result) });
  }

  /** Writes the cache file (entries of files no longer in the project are dropped). */
  save(): void {
    if (!this.file) return;
    const roots = new Set(this.roots);
    const stored: Stored = {
      format: FORMAT,
      stamp: this.stamp,
      roots: this.roots,
      ambient: this.ambient,
      listing: this.listing,
      program: this.program,
      graph: Object.fromEntries(this.graph),
      entries: Object.fromEntries([...this.entries].filter(([file]) => roots.has(file))),
    };
    mkdirSync(dirname(this.file), { recursive: true });
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(stored));
    renameSync(temporary, this.file);
    this.stored = stored;
  }

  /** True when the file's content is what `node` was stored for. */
  private isCurrent(file: string, node: StoredNode): boolean {
    const hash = this.hash(file);
    return hash !== undefined && node.hash === hash;
  }

  /** A leaf of the graph: its hash, and whether it declares globals if known for this content. */
  private leaf(file: string): StoredNode {
    const old = this.graph.get(file);
    const hash = this.hash(file) ?? "";
    return old?.globals !== undefined && this.isCurrent(file, old) ? { hash, globals: old.globals } : { hash };
  }

  /** The hashes of everything a root file reaches (imports at any depth), and the ambient files' digest. */
  private keyOf(root: string): string {
    const seen = new Set<string>();
    const pending = [root];
    for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
      if (seen.has(file)) continue;
      seen.add(file);
      pending.push(...(this.graph.get(file)?.imports ?? []));
    }
    return contentHash(`${this.ambientKey()}\u0002${this.hashesOf([...seen].sort())}`);
  }

  /** The hashes of the ambient files, which every root's key holds: worked out once per run and graph. */
  private ambientKey(): string {
    this.ambientDigest ??= contentHash(this.hashesOf(this.ambient));
    return this.ambientDigest;
  }

  private hashesOf(files: readonly string[]): string {
    return files.map((file) => `${file}\u0000${this.hash(file) ?? "-"}`).join("\u0001");
  }

  private hash(file: string): string | undefined {
    let read = this.reads.get(file);
    if (!read) {
      read = {};
      try {
        const bytes = readFileSync(file);
        const hash = contentHash(bytes);
        const generated = this.generated;
        const rendering = generated?.file === file && hash === generated.written();
        // Only an installed library's answer is asked (see SiteReach); UTF-8 bytes spell the word as the text does.
        read = {
          hash: rendering ? RENDERING : hash,
          ...(EXTERNAL.test(file) ? { names: mentionsToolwright(bytes) } : {}),
        };
      } catch {
        // Unreadable (deleted since it was listed): no hash, which no stored one equals.
      }
      this.reads.set(file, read);
    }
    return read.hash;
  }

  /** The names in every folder under the project root (outside node_modules and hidden folders). */
  private listingNow(): string {
    const lines: string[] = [];
    const walk = (dir: string) => {
      let entries: Dirent[];
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        return;
      }
      const names = entries.map((e) => e.name).filter((name) => !this.ignored.has(join(dir, name)));
      lines.push(`${dir}\u0000${names.sort().join("\u0000")}`);
      for (const entry of entries) {
        if (entry.name === "node_modules" || entry.name.startsWith(".") || !entry.isDirectory()) continue;
        walk(join(dir, entry.name));
      }
    };
    walk(this.root);
    return contentHash(lines.join("\u0001"));
  }
}
