import type { JsonSchema } from "toolwright";
import { type Backend, SymbolFlag, type TsType, TypeFlag } from "../backend/backend.js";
import type { TypeNode } from "../backend/syntax.js";
import type { TypeRule } from "./rule.js";
import { hasFlag } from "./type-facts.js";
import { elementNode, tupleElementNodes } from "./type-node-hint.js";

// Interfaces extend one another a few levels deep at most; the cap only stops a cycle.
const MAX_BASES = 8;

/**
 * The array an interface extends when it is one in all but name
 * (`interface JsonArray extends Array<Json> {}`, the usual recursive JSON type), through
 * other interfaces too. Classes are left out: an instance is more than its items.
 */
function arrayBase(type: TsType, backend: Backend, depth = 0): TsType | undefined {
  const symbol = backend.symbolOfType(type);
  if (depth > MAX_BASES || !symbol || !(backend.symbolFlags(symbol) & SymbolFlag.Interface)) return undefined;
  for (const base of backend.baseTypes(type)) {
    if (backend.isArrayType(base)) return base;
    const deeper = arrayBase(base, backend, depth + 1);
    if (deeper) return deeper;
  }
  return undefined;
}

/** The parts of an interface declaration read here, the same on both compilers' ASTs. */
interface InterfaceShape {
  readonly typeParameters?: readonly unknown[];
  readonly heritageClauses?: readonly {
    readonly types: readonly (TypeNode & { readonly typeArguments?: readonly TypeNode[] })[];
  }[];
}

/**
 * The element as a non-generic interface's own `extends Array<T>` clause writes it
 * (`interface JsonArray extends Array<Json> {}`), so its aliases and union order apply as
 * for `Json[]`. None through a generic interface, whose `T` is no annotation of the item.
 */
function writtenElement(type: TsType, backend: Backend): TypeNode | undefined {
  const S = backend.syntax;
  const symbol = backend.symbolOfType(type);
  for (const declaration of symbol ? backend.declarations(symbol) : []) {
    if (!S.isInterfaceDeclaration(declaration)) continue;
    const shape = declaration as unknown as InterfaceShape;
    if (shape.typeParameters) return undefined;
    for (const written of (shape.heritageClauses ?? []).flatMap((clause) => clause.types)) {
      const [only, ...more] = written.typeArguments ?? [];
      if (only && more.length === 0 && backend.isArrayType(backend.typeFromTypeNode(written))) return only;
    }
  }
  return undefined;
}

/** An interface's members that its array base does not have: `label` in `interface Path extends Array<string> { label: string }`. */
function ownMembers(type: TsType, base: TsType, backend: Backend): string[] {
  const inherited = new Set(backend.propertiesOfType(base).map((p) => backend.symbolName(p)));
  return backend
    .propertiesOfType(type)
    .map((p) => backend.symbolName(p))
    .filter((name) => !inherited.has(name));
}

/** The element type of an array, or of an interface that only extends one (its number index). */
function elementOf(type: TsType, backend: Backend): TsType | undefined {
  if (backend.isArrayType(type)) return backend.typeArguments(type)[0];
  return backend.indexInfosOfType(type).find((info) => hasFlag(info.keyType, TypeFlag.Number, backend))?.valueType;
}

/** Tuples (`[string, number?]`, with rest elements) map to `prefixItems`. */
export const tupleRule: TypeRule = {
  name: "tuple",
  supports: (t, ctx) => ctx.backend.isTupleType(t),
  convert(t, ctx, node) {
    const elements = ctx.backend.tupleElements(t);
    const isVariable = (e: string | undefined) => e === "rest" || e === "variadic";
    const firstRest = elements.findIndex(isVariable);
    if (firstRest !== -1 && elements.slice(firstRest + 1).some((e) => !isVariable(e))) {
      // JSON Schema fixes positions from the start only: it cannot say "the last item is a number".
      return ctx.unsupported(
        `the tuple \`${ctx.backend.typeToString(t)}\`, whose rest element comes before fixed elements`,
        "put the fixed elements first (e.g. `[number, ...string[]]`) or take an object with named fields",
      );
    }
    const args = ctx.backend.typeArguments(t);
    const nodes = tupleElementNodes(node, ctx.backend);
    const prefixItems: JsonSchema[] = [];
    let items: JsonSchema | false = false;
    args.forEach((arg, i) => {
      const schema = ctx.convert(arg, `[${i}]`, nodes[i]);
      if (isVariable(elements[i])) items = schema;
      else prefixItems.push(schema);
    });
    const minItems = elements.filter((e) => e === "required").length;
    return {
      type: "array",
      ...(prefixItems.length > 0 ? { prefixItems } : {}),
      items,
      minItems,
      ...(items === false ? { maxItems: prefixItems.length } : {}),
    };
  },
};

/**
 * `T[]`, `Array<T>`, `readonly T[]`, `ReadonlyArray<T>`, and interfaces that only extend
 * one of them. An interface with members of its own is no array JSON can write.
 */
export const arrayRule: TypeRule = {
  name: "array",
  supports: (t, ctx) => ctx.backend.isArrayType(t) || arrayBase(t, ctx.backend) !== undefined,
  convert(t, ctx, node) {
    const b = ctx.backend;
    const base = b.isArrayType(t) ? undefined : arrayBase(t, b);
    const own = base ? ownMembers(t, base, b) : [];
    if (own.length > 0) {
      return ctx.unsupported(
        `\`${b.typeToString(t)}\`, an array with members of its own (${own.map((name) => `\`${name}\``).join(", ")})`,
        "take an object with the items as one member (e.g. `{ items: T[]; label: string }`)",
      );
    }
    const element = elementOf(t, b);
    const written = base ? writtenElement(t, b) : elementNode(node, b);
    return { type: "array", items: element ? ctx.convert(element, "[]", written) : {} };
  },
};

const isArrayLike = (t: TsType, backend: Backend) =>
  backend.isArrayType(t) || backend.isTupleType(t) || arrayBase(t, backend) !== undefined;

/** An `items`-only array schema that a tuple's every position already says (`number[]` beside `[number, ...number[]]`). */
function impliedBy(schema: JsonSchema, tuple: JsonSchema): boolean {
  if (Object.keys(schema).length !== 2 || schema.type !== "array" || !("items" in schema)) return false;
  if (tuple.type !== "array" || !Array.isArray(tuple.prefixItems)) return false;
  const same = JSON.stringify(schema.items);
  return [...tuple.prefixItems, tuple.items].every((s) => s === false || JSON.stringify(s) === same);
}

/**
 * An intersection of arrays and tuples (`[number, ...number[]] & number[]`): every member
 * holds, so `allOf`, with plain arrays that a tuple member already implies left out.
 */
export const arrayIntersectionRule: TypeRule = {
  name: "array-intersection",
  supports: (t, ctx) =>
    hasFlag(t, TypeFlag.Intersection, ctx.backend) &&
    ctx.backend.typeMembers(t).every((m) => isArrayLike(m, ctx.backend)),
  convert(t, ctx) {
    const schemas = ctx.backend.typeMembers(t).map((m) => ctx.convert(m, ""));
    const kept = schemas.filter((s) => !schemas.some((other) => impliedBy(s, other)));
    return kept.length === 1 ? (kept[0] as JsonSchema) : { allOf: kept };
  },
};
