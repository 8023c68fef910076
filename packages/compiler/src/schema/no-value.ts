import { type Backend, SymbolFlag, type TsType, TypeFlag } from "../backend/backend.js";
import { hasFlag, includesUndefined, isDataProperty, isLibSymbol, valueCore } from "./type-facts.js";

// Deep enough for the branches people write (`{ a: { b: never } }`); deeper structures
// are taken to hold values, which only leaves an impossible branch in the schema.
const MAX_DEPTH = 4;

/**
 * True for a type no JSON value fits: `undefined`, `void`, `never`, a tuple with such a
 * required element (`[never]`), an object with such a required member
 * (`{ kind: never }`), a union of those only. A union drops such branches
 * (`number | [never]` is `number`); an optional member of such a type is a key that must
 * be absent (`{ kind?: undefined }`, the `b?: never` of an either-or type).
 */
export function holdsNoValue(type: TsType, backend: Backend, depth = 0): boolean {
  const t = valueCore(type, backend);
  if (hasFlag(t, TypeFlag.Undefined | TypeFlag.Void | TypeFlag.Never, backend)) return true;
  if (depth >= MAX_DEPTH) return false;
  if (hasFlag(t, TypeFlag.Union, backend)) return backend.typeMembers(t).every((m) => holdsNoValue(m, backend, depth));
  if (backend.isTupleType(t)) {
    const elements = backend.tupleElements(t);
    return backend
      .typeArguments(t)
      .some((element, i) => elements[i] === "required" && holdsNoValue(element, backend, depth + 1));
  }
  if (!hasFlag(t, TypeFlag.Object | TypeFlag.Intersection, backend) || backend.isArrayType(t)) return false;
  if (isLibSymbol(backend.symbolOfType(t), backend)) return false;
  return backend.propertiesOfType(t).some((property) => {
    if (!isDataProperty(property, backend) || backend.symbolFlags(property) & SymbolFlag.Optional) return false;
    const member = backend.typeOfSymbol(property);
    return !includesUndefined(member, backend) && holdsNoValue(member, backend, depth + 1);
  });
}
