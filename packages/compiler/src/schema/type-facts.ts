import type ts from "typescript";
import { TS } from "../typescript-host.js";

/** True when the symbol is declared in a TypeScript default library file (`lib.*.d.ts`). */
export function isLibSymbol(symbol: ts.Symbol | undefined): boolean {
  return symbol?.declarations?.some((d) => d.getSourceFile().hasNoDefaultLib) ?? false;
}

/** The lib class or interface a type is an instance of (`Date`, `Map`, ...), if any. */
export function libName(type: ts.Type): string | undefined {
  // Only classes and interfaces: mapped utility types (Record, Partial, ...) also live in
  // lib files but are plain objects once instantiated.
  const symbol = type.getSymbol();
  const named = symbol && (symbol.flags & (TS.SymbolFlags.Class | TS.SymbolFlags.Interface)) !== 0;
  return named && isLibSymbol(symbol) ? symbol.getName() : undefined;
}

/** True for `string`, `number`, `boolean` and their literals. */
export function isPrimitiveLike(type: ts.Type): boolean {
  return (type.flags & (TS.TypeFlags.StringLike | TS.TypeFlags.NumberLike | TS.TypeFlags.BooleanLike)) !== 0;
}

/** The JSON Schema `type` of a literal value. */
export function jsonTypeOf(value: unknown): string {
  return value === null ? "null" : typeof value === "number" ? "number" : typeof value;
}

/** The value of a string, number or boolean literal type. */
export function literalValue(type: ts.Type, checker: ts.TypeChecker): string | number | boolean | undefined {
  if (type.isStringLiteral() || type.isNumberLiteral()) return type.value;
  if (type.flags & TS.TypeFlags.BooleanLiteral) return checker.typeToString(type) === "true";
  return undefined;
}
