import type ts from "typescript";
import { TS } from "../typescript-host.js";

const graphs = new WeakMap<ts.Program, ProjectGraph>();

/**
 * The import edges between a Program's own files (installed packages left out: they do
 * not change while someone types). Edges come from `import`, `export … from` and
 * `import x = require()` statements, resolved by the checker, so they follow the
 * Program's own module resolution. Not followed: dynamic `import()` and `import("…")`
 * types, which rarely carry a tool's function.
 */
export class ProjectGraph {
  private readonly direct = new Map<string, readonly string[]>();
  private reverse: Map<string, string[]> | undefined;

  private constructor(private readonly program: ts.Program) {}

  /** The graph of `program`, built lazily and once per Program. */
  static of(program: ts.Program): ProjectGraph {
    let graph = graphs.get(program);
    if (!graph) {
      graph = new ProjectGraph(program);
      graphs.set(program, graph);
    }
    return graph;
  }

  /** Every project file `fileName` imports, directly or not: what its derivation may read. */
  dependencies(fileName: string): string[] {
    return this.walk(fileName, (file) => this.importsOf(file));
  }

  /** Every project file that imports `fileName`, directly or not: where tools made from its functions may be. */
  importers(fileName: string): string[] {
    if (!this.reverse) {
      const reverse = new Map<string, string[]>();
      for (const file of this.program.getSourceFiles()) {
        for (const target of this.importsOf(file.fileName)) {
          reverse.set(target, [...(reverse.get(target) ?? []), file.fileName]);
        }
      }
      this.reverse = reverse;
    }
    const reverse = this.reverse;
    return this.walk(fileName, (file) => reverse.get(file) ?? []);
  }

  private walk(start: string, next: (file: string) => readonly string[]): string[] {
    const seen = new Set([start]);
    const queue = [start];
    for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
      for (const other of next(file)) {
        if (seen.has(other)) continue;
        seen.add(other);
        queue.push(other);
      }
    }
    seen.delete(start);
    return [...seen];
  }

  private importsOf(fileName: string): readonly string[] {
    let imports = this.direct.get(fileName);
    if (imports) return imports;
    const file = this.program.getSourceFile(fileName);
    imports = file && this.isOwn(file) ? this.resolveImports(file) : [];
    this.direct.set(fileName, imports);
    return imports;
  }

  private isOwn(file: ts.SourceFile): boolean {
    return !this.program.isSourceFileFromExternalLibrary(file) && !this.program.isSourceFileDefaultLibrary(file);
  }

  private resolveImports(file: ts.SourceFile): string[] {
    const checker = this.program.getTypeChecker();
    const found: string[] = [];
    for (const statement of file.statements) {
      const specifier = moduleSpecifierOf(statement);
      const target = specifier && checker.getSymbolAtLocation(specifier)?.valueDeclaration;
      if (target && TS.isSourceFile(target) && this.isOwn(target)) found.push(target.fileName);
    }
    return found;
  }
}

function moduleSpecifierOf(statement: ts.Statement): ts.Expression | undefined {
  if (TS.isImportDeclaration(statement) || TS.isExportDeclaration(statement)) return statement.moduleSpecifier;
  if (TS.isImportEqualsDeclaration(statement) && TS.isExternalModuleReference(statement.moduleReference)) {
    return statement.moduleReference.expression;
  }
  return undefined;
}
