import type { Backend } from "../backend/backend.js";

const graphs = new WeakMap<Backend, ProjectGraph>();

/**
 * The module edges between a program's own files (installed packages and TypeScript's
 * libraries left out: they do not change while someone types), as the compiler resolves
 * the files' module references, so they follow the program's own module resolution.
 */
export class ProjectGraph {
  private direct: ReadonlyMap<string, readonly string[]> | undefined;
  private reverse: Map<string, string[]> | undefined;

  private constructor(private readonly backend: Backend) {}

  /** The graph of the program `backend` serves, built lazily and once per program. */
  static of(backend: Backend): ProjectGraph {
    let graph = graphs.get(backend);
    if (!graph) {
      graph = new ProjectGraph(backend);
      graphs.set(backend, graph);
    }
    return graph;
  }

  /** Every project file `fileName` imports, directly or not: what its derivation may read. */
  dependencies(fileName: string): string[] {
    const direct = this.edges();
    return this.walk(fileName, (file) => direct.get(file) ?? []);
  }

  /** Every project file that imports `fileName`, directly or not: where tools made from its functions may be. */
  importers(fileName: string): string[] {
    if (!this.reverse) {
      const reverse = new Map<string, string[]>();
      for (const [file, targets] of this.edges()) {
        for (const target of targets) reverse.set(target, [...(reverse.get(target) ?? []), file]);
      }
      this.reverse = reverse;
    }
    const reverse = this.reverse;
    return this.walk(fileName, (file) => reverse.get(file) ?? []);
  }

  /** The edges between own files, asked for every own file at once (one request over IPC). */
  private edges(): ReadonlyMap<string, readonly string[]> {
    if (!this.direct) {
      const own = new Set(
        this.backend
          .programFiles()
          .filter((f) => !f.isDefaultLibrary && !f.isExternalLibrary)
          .map((f) => f.fileName),
      );
      const targets = this.backend.moduleTargets([...own]);
      this.direct = new Map(
        [...own].map((file) => [file, [...new Set((targets.get(file) ?? []).filter((t) => own.has(t)))]]),
      );
    }
    return this.direct;
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
}
