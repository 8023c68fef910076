import type ts from "typescript";
import type { ToolwrightTypes } from "./toolwright-types.js";
import { TS } from "./typescript-host.js";

/**
 * The module names a file refers to, as TypeScript collected them while building the Program:
 * import and export declarations, `import x = require()`, `import()` calls and types, and
 * `require()` in JavaScript. The list is internal to TypeScript (there since 2.x); without
 * it nothing is known.
 */
function moduleNamesOf(file: ts.SourceFile): readonly ts.Node[] | undefined {
  const imports = (file as { imports?: unknown }).imports;
  return Array.isArray(imports) ? (imports as ts.Node[]) : undefined;
}

/** A script's declarations are global; so are a module's `declare global` and `declare module "x"` blocks. */
function declaresGlobals(file: ts.SourceFile): boolean {
  return (
    !TS.isExternalModule(file) ||
    file.statements.some(
      (s) =>
        TS.isModuleDeclaration(s) && (TS.isStringLiteral(s.name) || (s.flags & TS.NodeFlags.GlobalAugmentation) !== 0),
    )
  );
}

/**
 * Which files of a Program can hold a tool site, known without walking them or asking the
 * checker about their calls. Every site resolves to a declaration written with toolwright's
 * types (a `CompiledSpec` parameter, the `ToolInput` list type), so a file can hold one only
 * if its module references lead to toolwright's runtime, directly or through other modules
 * (the user's re-exports, wrappers and aliases included). When in doubt every file counts:
 * if TypeScript's list of module references is missing, or a file that declares globals
 * reaches toolwright (its types may then be used anywhere).
 */
export class SiteReach {
  private readonly reaching = new Set<ts.SourceFile>();
  private readonly everywhere: boolean = false;

  constructor(program: ts.Program, checker: ts.TypeChecker, types: ToolwrightTypes) {
    // Without toolwright in the Program there is nothing to reach.
    if (!types.present) return;
    const importers = new Map<ts.SourceFile, ts.SourceFile[]>();
    const pending: ts.SourceFile[] = [];
    let unknown = false;
    const files = program.getSourceFiles().filter((file) => !program.isSourceFileDefaultLibrary(file));
    // Resolving module names is the cost here (thousands in @types/node alone). A library's
    // declarations can only lead to toolwright if some library file names it: when none
    // does, no library file is a link and their names need no resolving.
    const librariesMayLink = files.some(
      (file) =>
        program.isSourceFileFromExternalLibrary(file) &&
        !types.isRuntimeFile(file.fileName) &&
        file.text.includes("toolwright"),
    );
    for (const file of files) {
      if (types.isRuntimeFile(file.fileName)) {
        pending.push(file);
        continue;
      }
      if (!librariesMayLink && program.isSourceFileFromExternalLibrary(file)) continue;
      const names = moduleNamesOf(file);
      if (!names) unknown = true;
      for (const name of names ?? []) {
        for (const declaration of checker.getSymbolAtLocation(name)?.declarations ?? []) {
          const imported = declaration.getSourceFile();
          const list = importers.get(imported);
          if (list) list.push(file);
          else importers.set(imported, [file]);
        }
      }
    }
    // From the runtime's files back through everything that imports them, at any depth.
    for (let file = pending.pop(); file; file = pending.pop()) {
      if (this.reaching.has(file)) continue;
      this.reaching.add(file);
      pending.push(...(importers.get(file) ?? []));
    }
    this.everywhere = unknown || [...this.reaching].some(declaresGlobals);
  }

  /** False only for a file that cannot hold a tool site. */
  canHoldSites(file: ts.SourceFile): boolean {
    return this.everywhere || this.reaching.has(file);
  }
}
