import type { Backend } from "./backend/backend.js";
import type { ModuleFacts } from "./module-facts.js";
import type { ToolwrightTypes } from "./toolwright-types.js";

/**
 * Which files of a program can hold a tool site, known without walking them or asking the
 * checker about their calls. Every site resolves to a declaration written with toolwright's
 * types (a `CompiledSpec` parameter, the `ToolInput` list type), so a file can hold one only
 * if its module references lead to toolwright's runtime, directly or through other modules
 * (the user's re-exports, wrappers and aliases included). When in doubt every file counts:
 * if the compiler does not say where a file's module references lead, or a file that
 * declares globals reaches toolwright (its types may then be used anywhere). Where module
 * references lead, which files declare globals and which libraries name toolwright come from
 * {@link ModuleFacts}, so a cache that knows the unchanged files spares parsing (or reading) them.
 */
export class SiteReach {
  private readonly reaching = new Set<string>();
  private readonly everywhere: boolean = false;

  constructor(backend: Backend, types: ToolwrightTypes, modules: ModuleFacts) {
    // Without toolwright in the program there is nothing to reach.
    if (!types.present) return;
    const files = backend.programFiles().filter((file) => !file.isDefaultLibrary);
    // Resolving module names is the cost here (thousands in @types/node alone). A library's
    // declarations can only lead to toolwright if some library file names it: when none
    // does, no library file is a link and their names need no resolving.
    const librariesMayLink = files.some(
      (file) => file.isExternalLibrary && !types.isRuntimeFile(file.fileName) && modules.namesToolwright(file.fileName),
    );
    const pending: string[] = [];
    const asked: string[] = [];
    for (const file of files) {
      if (types.isRuntimeFile(file.fileName)) pending.push(file.fileName);
      else if (librariesMayLink || !file.isExternalLibrary) asked.push(file.fileName);
    }
    const importers = new Map<string, string[]>();
    let unknown = false;
    for (const [file, targets] of modules.moduleTargets(asked)) {
      if (!targets) unknown = true;
      for (const imported of targets ?? []) {
        const list = importers.get(imported);
        if (list) list.push(file);
        else importers.set(imported, [file]);
      }
    }
    // From the runtime's files back through everything that imports them, at any depth.
    for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
      if (this.reaching.has(file)) continue;
      this.reaching.add(file);
      pending.push(...(importers.get(file) ?? []));
    }
    // toolwright's own declaration files declare no globals (a test of the runtime's dist
    // holds it to that): asking would parse its 70-odd files on every cold run.
    this.everywhere =
      unknown ||
      [...this.reaching].some((fileName) => !types.isRuntimeFile(fileName) && modules.declaresGlobals(fileName));
  }

  /**
   * False only for a file that cannot hold a tool site, nor declare a function taking a spec:
   * its module references lead to no toolwright module (default libraries never do).
   */
  reaches(fileName: string): boolean {
    return this.everywhere || this.reaching.has(fileName);
  }
}
