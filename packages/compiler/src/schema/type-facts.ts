import { type Backend, SymbolFlag, type TsSymbol, type TsType, TypeFlag } from "../backend/backend.js";

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

/** What a value type's JSON can be: a primitive, a literal, a template literal or a bigint. */
const VALUE_KINDS =
  TypeFlag.String |
  TypeFlag.Number |
  TypeFlag.Boolean |
  TypeFlag.BigInt |
  TypeFlag.StringLiteral |
  TypeFlag.NumberLiteral |
  TypeFlag.BooleanLiteral |
  TypeFlag.TemplateLiteral;

/**
 * The value a branded or tagged primitive stands for: `string & { __brand: "Email" }` is a
 * `string`, `"fast" & Record<never, never>` is `"fast"`, `true & { __meta?: object }` is
 * `true`. A primitive has none of an object type's members, so a value of such an
 * intersection is the primitive itself (members written only for the type checker). Any
 * other type is returned as it is.
 */
export function valueCore(type: TsType, backend: Backend): TsType {
  if (!hasFlag(type, TypeFlag.Intersection, backend)) return type;
  const members = backend.typeMembers(type);
  const values = members.filter((m) => hasFlag(m, VALUE_KINDS, backend));
  const [value] = values;
  if (!value || values.length > 1) return type;
  const objects = members.every((m) => m === value || hasFlag(m, TypeFlag.Object | TypeFlag.NonPrimitive, backend));
  return objects ? value : type;
}

/**
 * False for members JSON never carries: a getter without a setter and a method (both live
 * on a prototype, which `JSON.stringify` does not write), and symbol-keyed members (brands).
 */
export function isDataProperty(property: TsSymbol, backend: Backend): boolean {
  if (backend.symbolName(property).startsWith("__@")) return false;
  const flags = backend.symbolFlags(property);
  if (flags & SymbolFlag.Method) return false;
  return !(flags & SymbolFlag.GetAccessor) || (flags & SymbolFlag.SetAccessor) !== 0;
}

/**
 * `x: T | undefined` without `?`: a JSON sender can only say "undefined" by leaving the
 * key out, so such a member or parameter is optional.
 */
export function includesUndefined(type: TsType, backend: Backend): boolean {
  return (
    hasFlag(type, TypeFlag.Union, backend) &&
    backend.typeMembers(type).some((t) => hasFlag(t, TypeFlag.Undefined, backend))
  );
}
