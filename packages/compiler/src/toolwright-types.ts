import path from "node:path";
import type ts from "typescript";
import { TS } from "./typescript-host.js";

const BRAND_FILE = /[\\/](spec|context)\.(d\.)?ts$/;

/**
 * Recognises toolwright's own types in one Program by their `unique symbol` brands
 * (`compiledSpecBrand` on `CompiledSpec`, `toolContextBrand` on `ToolContext`), declared
 * in the runtime's spec and context modules, never by a function's or type's text name.
 */
export class ToolwrightTypes {
  /** Root folders of toolwright's runtime (its `src` or `dist`, source or `.d.ts`) in this Program. */
  readonly runtimeDirs: ReadonlySet<string>;
  private readonly specIndexes = new Map<ts.Node, number>();

  constructor(
    program: ts.Program,
    private readonly checker: ts.TypeChecker,
  ) {
    const dirs = new Set<string>();
    for (const file of program.getSourceFiles()) {
      if (/[\\/]spec\.(d\.)?ts$/.test(file.fileName) && file.text.includes("compiledSpecBrand")) {
        // spec.ts lives in the runtime's tools/ folder; its other modules sit beside that folder.
        const folder = path.dirname(file.fileName);
        dirs.add(path.basename(folder) === "tools" ? path.dirname(folder) : folder);
      }
    }
    this.runtimeDirs = dirs;
  }

  /** False when the Program does not include toolwright at all: nothing to transform. */
  get present(): boolean {
    return this.runtimeDirs.size > 0;
  }

  /** True when a member of `type` (or of a union member) carries the given brand. */
  hasBrand(type: ts.Type, brand: "compiledSpecBrand" | "toolContextBrand"): boolean {
    const parts = type.isUnion() ? type.types : [type];
    return parts.some(
      (part) =>
        (part.flags & (TS.TypeFlags.Object | TS.TypeFlags.Intersection)) !== 0 &&
        this.checker.getPropertiesOfType(part).some((p) => this.isBrand(p, brand)),
    );
  }

  /** Index of the signature's `CompiledSpec` parameter, or -1. */
  specParameterIndex(signature: ts.Signature): number {
    // Generic signatures are instantiated per call; the spec parameter's position is a
    // property of the declaration, so look it up once per declaration.
    const declaration = signature.getDeclaration();
    let index = declaration ? this.specIndexes.get(declaration) : undefined;
    if (index === undefined) {
      index = signature.parameters.findIndex((p) =>
        this.hasBrand(this.checker.getTypeOfSymbol(p), "compiledSpecBrand"),
      );
      if (declaration) this.specIndexes.set(declaration, index);
    }
    return index;
  }

  /** True when `type` is toolwright's `ToolInput` union (the element type of tool lists). */
  isToolInput(type: ts.Type): boolean {
    const declaration = type.aliasSymbol?.declarations?.[0];
    return (
      type.aliasSymbol?.getName() === "ToolInput" &&
      declaration !== undefined &&
      this.isRuntimeFile(declaration.getSourceFile().fileName)
    );
  }

  /** True for a file inside one of the runtime's folders (TypeScript writes file names with `/`). */
  isRuntimeFile(file: string): boolean {
    for (const dir of this.runtimeDirs) if (file.startsWith(`${dir}/`)) return true;
    return false;
  }

  private isBrand(property: ts.Symbol, brand: string): boolean {
    if (!(property.escapedName as string).startsWith(`__@${brand}@`)) return false;
    const file = property.declarations?.[0]?.getSourceFile().fileName ?? "";
    return BRAND_FILE.test(file) && this.isRuntimeFile(file);
  }
}
