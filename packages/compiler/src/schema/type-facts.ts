import { type Backend, SymbolFlag, type TsSymbol, type TsType } from "../backend/backend.js";

/** True when the symbol is declared in a TypeScript default library file (`lib.*.d.ts`). */
export function isLibSymbol(symbol: TsSymbol | undefined, backend: Backend): boolean {
  return symbol !== undefined && backend.declarationFiles(symbol).some((file) => backend.isDefaultLibraryFile(file));
}

/** The lib class or interface a type is an instance of (`Date`, `Map`, ...), if any. */
export function libName(type: TsType, backend: Backend): string | undefined {
  // Only classes and interfaces: mapped utility types (Record, Partial, ...) also live in
  // lib files but are plain objects once instantiated.
  const symbol = backend.symbolOfType(type);
  const named = symbol && (backend.symbolFlags(symbol) & (SymbolFlag.Class | SymbolFlag.Interface)) !== 0;
  return named && isLibSymbol(symbol, backend) ? backend.symbolName(symbol) : undefined;
}

/** True when the type has any of the {@link TypeFlag} bits in `flags`. */
export function hasFlag(type: TsType, flags: number, backend: Backend): boolean {
  return (backend.typeFlags(type) & flags) !== 0;
}

/** The JSON Schema `type` of a literal value. */
export function jsonTypeOf(value: unknown): string {
  return value === null ? "null" : typeof value === "number" ? "number" : typeof value;
}
