import { resolve } from "node:path";
import MagicString, { type SourceMap } from "magic-string";
import type ts from "typescript";
import { deriveSpecs, type FileResult } from "../derive-specs.js";
import { editFor } from "../emit-text.js";
import type { CompilerOptions } from "../options.js";
import { TS } from "../typescript-host.js";
import { FileVersions } from "./file-versions.js";
import { ImportGraph } from "./import-graph.js";
import { readProjectConfig } from "./project-config.js";

/** Options shared by the esbuild and Vite plugins. */
export interface SpecServiceOptions {
  /** Project directory; defaults to `process.cwd()`. */
  readonly cwd?: string;
  /**
   * The tsconfig.json whose compiler options (paths, strictness, libs) the language
   * service uses. Default: the nearest one above `cwd`; `false` for built-in defaults.
   */
  readonly tsconfig?: string | false;
  /** TypeScript compiler options that win over the tsconfig's. */
  readonly compilerOptions?: ts.CompilerOptions;
  /** Overrides of the transformer's entry in the tsconfig's `compilerOptions.plugins` (which is read too). */
  readonly compiler?: CompilerOptions;
}

/** What the service made of one file. */
export interface ServiceResult {
  /** The source with every spec spliced in: nothing else in the text moves. */
  readonly code: string;
  readonly map: SourceMap;
  readonly derived: FileResult;
  /** True when a spec was written into the file (a tool's or a `schema<T>()` call's). */
  readonly written: boolean;
  /** Project files the specs may depend on: a change to any of them re-derives the file. */
  readonly watchFiles: readonly string[];
}

interface CacheEntry {
  readonly version: string;
  readonly deps: ReadonlyMap<string, string | undefined>;
  readonly result: ServiceResult;
}

/**
 * The engine of the bundler plugins: one long-lived TypeScript LanguageService over the
 * project (files versioned by content hash, so each rebuild re-parses only what
 * changed), a text-only pre-filter, a cache of results per file keyed by its own
 * version and the versions of the files it imports, and a splice of each spec into the
 * original text (positions stay true, so the sourcemap is exact).
 *
 * @example
 * ```ts
 * // One service shared by several builds (and the Vite plugin) in one process.
 * const service = new SpecService({ cwd: "packages/app" });
 * await build({ entryPoints: ["src/a.ts"], plugins: [toolwright({ service })] });
 * await build({ entryPoints: ["src/b.ts"], plugins: [toolwright({ service })] });
 * ```
 */
export class SpecService {
  readonly cwd: string;
  private readonly files = new FileVersions();
  private readonly graph: ImportGraph;
  private readonly roots: Set<string>;
  private readonly service: ts.LanguageService;
  private readonly options: ts.CompilerOptions;
  private readonly cache = new Map<string, CacheEntry>();
  private readonly compiler: CompilerOptions;

  constructor(settings: SpecServiceOptions = {}) {
    this.cwd = resolve(settings.cwd ?? process.cwd());
    const config = readProjectConfig(this.cwd, settings.tsconfig);
    const options: ts.CompilerOptions = { ...config.options, ...settings.compilerOptions, noEmit: true };
    this.options = options;
    this.compiler = { ...config.toolwright, ...settings.compiler };
    this.roots = new Set(config.fileNames);
    const resolutionCache = TS.createModuleResolutionCache(this.cwd, (f) => f, options);
    this.graph = new ImportGraph(this.files, (specifier, containingFile) => {
      const resolved = TS.resolveModuleName(specifier, containingFile, options, TS.sys, resolutionCache).resolvedModule;
      return resolved && { file: resolved.resolvedFileName, external: resolved.isExternalLibraryImport === true };
    });
    const host: ts.LanguageServiceHost = {
      getCompilationSettings: () => this.options,
      getScriptFileNames: () => [...this.roots],
      getScriptVersion: (f) => this.files.version(f) ?? "",
      getScriptSnapshot: (f) => {
        const text = this.files.text(f);
        return text === undefined ? undefined : TS.ScriptSnapshot.fromString(text);
      },
      getCurrentDirectory: () => this.cwd,
      getDefaultLibFileName: (o) => TS.getDefaultLibFilePath(o),
      fileExists: TS.sys.fileExists,
      readFile: TS.sys.readFile,
      readDirectory: TS.sys.readDirectory,
      directoryExists: TS.sys.directoryExists,
      getDirectories: TS.sys.getDirectories,
      realpath: TS.sys.realpath,
      useCaseSensitiveFileNames: () => TS.sys.useCaseSensitiveFileNames,
      // As tsc: toolwright reads TSDoc from the source text, not from parsed JSDoc. The
      // registry must use the same mode, or TypeScript fails with "Expected undefined === 0".
      // TypeScript 5.0 to 5.2 have no such mode (undefined: JSDoc parsed, as they always do).
      jsDocParsingMode: TS.JSDocParsingMode?.ParseForTypeErrors,
    };
    const registry = TS.createDocumentRegistry(
      TS.sys.useCaseSensitiveFileNames,
      this.cwd,
      TS.JSDocParsingMode?.ParseForTypeErrors,
    );
    this.service = TS.createLanguageService(host, registry);
  }

  /**
   * Marks the start of a build: within one build each file on disk is checked once.
   * Without it (the default), every lookup checks the disk.
   */
  startBuild(): void {
    this.files.startRound();
  }

  /**
   * A file's current text, read from disk only when its stat stamp changed (so a
   * rebuild does not re-read every unchanged file), or undefined when it does not exist.
   */
  readSource(fileName: string): string | undefined {
    return this.files.text(fileName);
  }

  /** True when the file may contain tool sites; the rest is left to the bundler untouched. */
  mayDefineTools(fileName: string, text: string): boolean {
    this.files.set(fileName, text);
    return this.graph.mayDefineTools(fileName);
  }

  /**
   * Derives and splices the specs of one file. Returns undefined when the pre-filter
   * rules the file out (it cannot contain tool sites).
   */
  transform(fileName: string, text: string): ServiceResult | undefined {
    const version = this.files.set(fileName, text);
    const cached = this.cache.get(fileName);
    if (cached && cached.version === version && this.depsUnchanged(cached.deps)) return cached.result;
    if (!this.graph.mayDefineTools(fileName)) return undefined;
    this.roots.add(fileName);
    const program = this.service.getProgram();
    const sourceFile = program?.getSourceFile(fileName);
    if (!program || !sourceFile) {
      throw new Error(`toolwright: TypeScript could not load ${fileName}; check that it is a TypeScript file.`);
    }
    const derived = deriveSpecs(program, sourceFile, this.compiler);
    const magic = new MagicString(text);
    const edits = [...derived.sites, ...derived.schemas, ...derived.rejected].map((site) => editFor(site, text));
    for (const edit of edits) {
      if (edit.start === edit.end) magic.appendLeft(edit.start, edit.text);
      else magic.overwrite(edit.start, edit.end, edit.text);
    }
    const deps = this.graph.dependencies(fileName);
    const result: ServiceResult = {
      code: magic.toString(),
      map: magic.generateMap({ source: fileName, file: fileName, includeContent: true, hires: "boundary" }),
      derived,
      written: derived.sites.length + derived.schemas.length > 0,
      watchFiles: deps,
    };
    this.cache.set(fileName, { version, deps: new Map(deps.map((d) => [d, this.files.version(d)])), result });
    return result;
  }

  /** The language service itself, for tests and tools that need the program. */
  get languageService(): ts.LanguageService {
    return this.service;
  }

  private depsUnchanged(deps: ReadonlyMap<string, string | undefined>): boolean {
    for (const [file, version] of deps) if (this.files.version(file) !== version) return false;
    return true;
  }
}
