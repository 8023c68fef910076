import type { SourceFile } from "../backend/syntax.js";
import type { Ts7Modules } from "../backend/ts7/ts7-api.js";
import { type FileOverlay, Ts7Session, type Ts7Snapshot } from "../backend/ts7/ts7-session.js";
import type { Finding } from "../diagnostics.js";
import { type EditorFile, editorFile, type Hint, locatedIn } from "../editor/editor-file.js";
import { ProjectGraph } from "../editor/project-graph.js";
import { type QuickFix, quickFixes, sitesOf } from "../editor/quick-fixes.js";
import { siteAt } from "../editor/site-at.js";
import { toolMarkdown } from "../editor/tool-markdown.js";
import { type CompilerOptions, resolveOptions } from "../options.js";
import type { ToolSite } from "../sites.js";
import { toolwrightOptionsOf } from "../tsconfig-file.js";

/** What the editor is shown for one file: the build's findings and the editor's hints located in it. */
export interface Located {
  readonly file: SourceFile;
  readonly findings: readonly Finding[];
  readonly hints: readonly Hint[];
  /** The file's own tool sites (a thin description is reported at its site). */
  readonly sites: readonly ToolSite[];
}

/** A hover on a tool site: the tool's Markdown and the span it is about. */
export interface ToolHover {
  readonly markdown: string;
  readonly start: number;
  readonly end: number;
}

/** A `.json` file among the changes may be the tsconfig or one it extends: the options are read again. */
const CONFIG = /\.json$/i;

/**
 * One TypeScript 7 project as `toolwright lsp` sees it: one long-lived API process
 * (Ts7Session) whose files are read through the editor's open buffers first
 * (`overlay`), told about every change (an edit, a save, a file created or deleted on
 * disk), and asked again only when a question comes: changes are gathered and handed to
 * the process in one snapshot update before the next answer. Each snapshot derives a file
 * once, on demand; a file's findings include those its importers' tools report in it.
 */
export class Ts7Workspace {
  private readonly session: Ts7Session;
  private snapshot: Ts7Snapshot | undefined;
  private readonly changed = new Set<string>();
  private readonly created = new Set<string>();
  private readonly deleted = new Set<string>();
  private files = new Map<string, EditorFile | undefined>();
  private options: CompilerOptions;

  /**
   * @param editorOptions options the editor passes (`initializationOptions`), on top of the tsconfig's.
   */
  constructor(
    modules: Ts7Modules,
    private readonly config: {
      readonly cwd: string;
      readonly tsconfig: string;
      readonly editorOptions: CompilerOptions;
    },
    overlay: FileOverlay,
  ) {
    this.session = new Ts7Session(modules, { cwd: config.cwd, tsconfig: config.tsconfig, overlay });
    this.options = this.readOptions();
  }

  /** The TypeScript version answering. */
  get version(): string {
    return this.current().backend.version;
  }

  /** A file's text changed: in the editor (an edit, a file opened or closed) or on disk. */
  fileChanged(fileName: string): void {
    this.changed.add(fileName);
  }

  fileCreated(fileName: string): void {
    this.created.add(fileName);
  }

  fileDeleted(fileName: string): void {
    this.deleted.add(fileName);
  }

  /** The findings and hints located in `fileName`, or undefined when the project does not hold it. */
  located(fileName: string): Located | undefined {
    const snapshot = this.current();
    const file = snapshot.backend.sourceFile(fileName);
    if (!file || file.isDeclarationFile) return undefined;
    const sources = [fileName, ...ProjectGraph.of(snapshot.backend).importers(fileName)].map((f) => this.fileOf(f));
    return {
      file,
      findings: locatedIn(
        sources,
        fileName,
        (d) => d.derived.findings,
        (f) => f,
      ),
      hints: locatedIn(
        sources,
        fileName,
        (d) => d.hints,
        (h) => h.finding,
      ),
      sites: sitesOf(this.fileOf(fileName)?.derived),
    };
  }

  /** The tool whose site is at `position` in `fileName`, as its hover shows it. */
  hover(fileName: string, position: number): ToolHover | undefined {
    const { backend } = this.current();
    const found = siteAt(this.fileOf(fileName)?.derived.sites ?? [], position, backend.syntax);
    if (!found) return undefined;
    const { targets } = resolveOptions(this.options);
    return {
      markdown: toolMarkdown(found.derived.spec, targets),
      start: found.anchor.getStart(),
      end: found.anchor.getEnd(),
    };
  }

  /** toolwright's quick fixes for the span `start`..`end` of `fileName`. */
  quickFixes(fileName: string, start: number, end: number): QuickFix[] {
    const located = this.located(fileName);
    return located ? quickFixes(this.current().backend, located, start, end) : [];
  }

  /** A file of the current snapshot, parsed: what offsets in answers are offsets of. */
  sourceFile(fileName: string): SourceFile | undefined {
    return this.current().backend.sourceFile(fileName);
  }

  /** Ends the API process. */
  close(): void {
    this.session.close();
  }

  private readOptions(): CompilerOptions {
    return { ...toolwrightOptionsOf(this.config.tsconfig), ...this.config.editorOptions };
  }

  private fileOf(fileName: string): EditorFile | undefined {
    if (!this.files.has(fileName)) {
      const { derivation, backend } = this.current();
      const file = backend.sourceFile(fileName);
      this.files.set(fileName, file && editorFile(derivation, file, this.options));
    }
    return this.files.get(fileName);
  }

  /** The snapshot after every change so far: one update for all the changes gathered since the last answer. */
  private current(): Ts7Snapshot {
    if (!this.snapshot) {
      this.snapshot = this.session.open();
      this.changed.clear();
      this.created.clear();
      this.deleted.clear();
      return this.snapshot;
    }
    if (this.changed.size + this.created.size + this.deleted.size === 0) return this.snapshot;
    const changes = { changed: [...this.changed], created: [...this.created], deleted: [...this.deleted] };
    this.changed.clear();
    this.created.clear();
    this.deleted.clear();
    if ([...changes.changed, ...changes.created, ...changes.deleted].some((f) => CONFIG.test(f))) {
      this.options = this.readOptions();
    }
    this.snapshot = this.session.update(changes);
    this.files = new Map();
    return this.snapshot;
  }
}
