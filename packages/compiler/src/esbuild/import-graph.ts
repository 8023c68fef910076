import { TS } from "../typescript-host.js";
import type { FileVersions } from "./file-versions.js";

interface FileImports {
  readonly version: string;
  /** The text names the runtime package (an import of `toolwright`, its types, or a re-export of it). */
  readonly mentionsToolwright: boolean;
  /** Resolved files of its static and dynamic imports and `export … from` re-exports. */
  readonly imports: readonly ResolvedImport[];
}

/** A resolved import: the file, and whether it belongs to an installed package. */
export interface ResolvedImport {
  readonly file: string;
  /** An installed package (also when a workspace symlink puts its real path outside node_modules). */
  readonly external: boolean;
}

/** Resolves a module specifier from a file, or undefined for one TypeScript cannot find. */
export type ResolveModule = (specifier: string, containingFile: string) => ResolvedImport | undefined;

/**
 * The cheap pre-filter: which files can contain tool sites, decided from text and
 * imports only (no type checking).
 *
 * The rule: a file can contain tool sites when its text mentions `toolwright`, or when
 * one of its imports (followed transitively) is such a file. So a file that imports
 * `tool` through a local re-export module (`export { tool as defineTool } from
 * "toolwright"`), or a package that re-exports it, is still processed. Inside
 * `node_modules`, only relative imports are followed, which keeps large typings out of
 * the walk. Not covered: a tool function reaching a file only through a global
 * (ambient) declaration, with no import at all.
 */
export class ImportGraph {
  private readonly cache = new Map<string, FileImports>();

  constructor(
    private readonly files: FileVersions,
    private readonly resolve: ResolveModule,
  ) {}

  /** True when the file may contain tool sites (see the class comment for the rule). */
  mayDefineTools(fileName: string): boolean {
    const visited = new Set<string>();
    const visit = (file: string, external: boolean): boolean => {
      if (visited.has(file)) return false;
      visited.add(file);
      const info = this.imports(file, external);
      if (!info) return false;
      if (info.mentionsToolwright) return true;
      return info.imports.some((next) => visit(next.file, next.external));
    };
    return visit(fileName, false);
  }

  /** Every project file (outside node_modules) the file imports, transitively: what its specs may depend on. */
  dependencies(fileName: string): string[] {
    const seen = new Set<string>([fileName]);
    const queue = [fileName];
    for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
      for (const next of this.imports(file, false)?.imports ?? []) {
        if (seen.has(next.file) || next.external) continue;
        seen.add(next.file);
        queue.push(next.file);
      }
    }
    seen.delete(fileName);
    return [...seen];
  }

  private imports(fileName: string, external: boolean): FileImports | undefined {
    const version = this.files.version(fileName);
    if (version === undefined) return undefined;
    const cached = this.cache.get(fileName);
    if (cached?.version === version) return cached;
    const text = this.files.text(fileName) ?? "";
    const imports: ResolvedImport[] = [];
    for (const ref of TS.preProcessFile(text, true, true).importedFiles) {
      if (external && !ref.fileName.startsWith(".")) continue;
      const resolved = this.resolve(ref.fileName, fileName);
      // Relative imports inside a package stay inside the package.
      if (resolved) imports.push(external ? { file: resolved.file, external: true } : resolved);
    }
    const info: FileImports = { version, mentionsToolwright: text.includes("toolwright"), imports };
    this.cache.set(fileName, info);
    return info;
  }
}
