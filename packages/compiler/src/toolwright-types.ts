import path from "node:path";
import { type Backend, type TsSignature, type TsSymbol, type TsType, TypeFlag } from "./backend/backend.js";
import type { Node } from "./backend/syntax.js";

const BRAND_FILE = /[\\/](spec|context)\.(d\.)?ts$/;
const SPEC_FILE = /[\\/]spec\.(d\.)?ts$/;

/** The brands toolwright's runtime declares: a tool's spec, a `schema<T>()`'s spec, the tool context. */
export type Brand = "compiledSpecBrand" | "compiledSchemaBrand" | "toolContextBrand";

/**
 * Recognises toolwright's own types in one program by their `unique symbol` brands
 * (`compiledSpecBrand` on `CompiledSpec`, `compiledSchemaBrand` on `CompiledSchema`,
 * `toolContextBrand` on `ToolContext`), declared in the runtime's spec and context modules
 * (`tools/spec.ts`, `output/spec.ts`, `context.ts`), never by a function's or type's text name.
 */
export class ToolwrightTypes {
  /** Root folders of toolwright's runtime (its `src` or `dist`, source or `.d.ts`) in this program. */
  readonly runtimeDirs: ReadonlySet<string>;
  private readonly specIndexes = new Map<Node, number>();
  private readonly schemaIndexes = new Map<Node, number>();

  constructor(private readonly backend: Backend) {
    const dirs = new Set<string>();
    for (const { fileName } of backend.programFiles()) {
      if (SPEC_FILE.test(fileName) && backend.fileText(fileName)?.includes("compiledSpecBrand")) {
        // spec.ts lives in the runtime's tools/ folder; its other modules sit beside that folder.
        const folder = path.dirname(fileName);
        dirs.add(path.basename(folder) === "tools" ? path.dirname(folder) : folder);
      }
    }
    this.runtimeDirs = dirs;
  }

  /** False when the program does not include toolwright at all: nothing to transform. */
  get present(): boolean {
    return this.runtimeDirs.size > 0;
  }

  /** True when a member of `type` (or of a union member) carries the given brand. */
  hasBrand(type: TsType, brand: Brand): boolean {
    const b = this.backend;
    const parts = b.typeFlags(type) & TypeFlag.Union ? b.typeMembers(type) : [type];
    // Brands are members of toolwright's own types: an array or tuple (whose members are
    // TypeScript's Array methods) carries none, and listing those members costs a request.
    return parts.some(
      (part) =>
        (b.typeFlags(part) & (TypeFlag.Object | TypeFlag.Intersection)) !== 0 &&
        !b.isArrayType(part) &&
        !b.isTupleType(part) &&
        b.propertiesOfType(part).some((p) => this.isBrand(p, brand)),
    );
  }

  /** Index of the signature's `CompiledSpec` parameter, or -1. */
  specParameterIndex(signature: TsSignature): number {
    return this.brandedParameterIndex(signature, "compiledSpecBrand", this.specIndexes);
  }

  /** Index of the signature's `CompiledSchema` parameter (`schema<T>(options?, spec?)`), or -1. */
  schemaParameterIndex(signature: TsSignature): number {
    return this.brandedParameterIndex(signature, "compiledSchemaBrand", this.schemaIndexes);
  }

  private brandedParameterIndex(signature: TsSignature, brand: Brand, cache: Map<Node, number>): number {
    // Generic signatures are instantiated per call; the spec parameter's position is a
    // property of the declaration, so look it up once per declaration.
    const declaration = this.backend.signatureDeclaration(signature);
    let index = declaration ? cache.get(declaration) : undefined;
    if (index === undefined) {
      const types = this.backend.typesOfSymbols(this.backend.signatureParameters(signature));
      index = types.findIndex((t) => this.hasBrand(t, brand));
      if (declaration) cache.set(declaration, index);
    }
    return index;
  }

  /** True when `type` is toolwright's `ToolInput` union (the element type of tool lists). */
  isToolInput(type: TsType): boolean {
    const alias = this.backend.aliasOfType(type);
    if (!alias || this.backend.symbolName(alias) !== "ToolInput") return false;
    const [file] = this.backend.declarationFiles(alias);
    return file !== undefined && this.isRuntimeFile(file);
  }

  /** True for a file inside one of the runtime's folders (TypeScript writes file names with `/`). */
  isRuntimeFile(file: string): boolean {
    for (const dir of this.runtimeDirs) if (file.startsWith(`${dir}/`)) return true;
    return false;
  }

  private isBrand(property: TsSymbol, brand: string): boolean {
    if (!this.backend.escapedName(property).startsWith(`__@${brand}@`)) return false;
    const [file = ""] = this.backend.declarationFiles(property);
    return BRAND_FILE.test(file) && this.isRuntimeFile(file);
  }
}
