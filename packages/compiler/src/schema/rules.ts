import type { JsonSchema } from "toolwright";
import { type Backend, SymbolFlag, type TsSymbol, type TsType, TypeFlag } from "../backend/backend.js";
import type { Node, TypeNode } from "../backend/syntax.js";
import type { RuleContext, TypeRule } from "./rule.js";
import { templatePattern } from "./template-pattern.js";
import { hasFlag, isLibSymbol, jsonTypeOf, libName } from "./type-facts.js";
import { elementNode, tupleElementNodes } from "./type-node-hint.js";
import { type UnionMember, unionMembersInSourceOrder } from "./union-order.js";

/** True when `t` has any of the {@link TypeFlag} bits in `flags`. */
const is = (t: TsType, flags: number, ctx: RuleContext) => hasFlag(t, flags, ctx.backend);
const PRIMITIVE = TypeFlag.String | TypeFlag.Number | TypeFlag.Boolean;

/** `any` and `unknown` accept any JSON value. */
const anyUnknownRule: TypeRule = {
  name: "any-unknown",
  supports: (t, ctx) => is(t, TypeFlag.Any | TypeFlag.Unknown, ctx),
  convert: () => ({}),
};

/** A type parameter left open (`function f<T>(x: T)`): the schema cannot know what T is. */
const typeParameterRule: TypeRule = {
  name: "type-parameter",
  supports: (t, ctx) => is(t, TypeFlag.TypeParameter, ctx),
  convert: (t, ctx) =>
    ctx.unsupported(
      `the unresolved type parameter \`${ctx.backend.typeToString(t)}\``,
      "give the parameter a concrete type, or wrap the generic function in one with concrete types",
    ),
};

const bigintRule: TypeRule = {
  name: "bigint",
  supports: (t, ctx) => is(t, TypeFlag.BigInt, ctx),
  convert: (_t, ctx) => ctx.unsupported("`bigint`", "use `number`, or a `string` of digits and convert it in the tool"),
};

const symbolRule: TypeRule = {
  name: "symbol",
  supports: (t, ctx) => is(t, TypeFlag.ESSymbol, ctx),
  convert: (_t, ctx) => ctx.unsupported("`symbol`", "use a `string` or a string literal union"),
};

/** `undefined`, `void` and `never` alone carry no JSON value (optional members are handled by the caller). */
const noValueRule: TypeRule = {
  name: "no-value",
  supports: (t, ctx) => is(t, TypeFlag.Undefined | TypeFlag.Void | TypeFlag.Never, ctx),
  convert: (t, ctx) =>
    ctx.unsupported(`\`${ctx.backend.typeToString(t)}\``, "make the member optional (`?`) or give it a data type"),
};

const nullRule: TypeRule = {
  name: "null",
  supports: (t, ctx) => is(t, TypeFlag.Null, ctx),
  convert: () => ({ type: "null" }),
};

/** `integer` through a branded alias: `type Integer = number & { __brand: "integer" }`. */
const integerRule: TypeRule = {
  name: "integer",
  supports(t, ctx) {
    const b = ctx.backend;
    if (!is(t, TypeFlag.Intersection, ctx) || !b.typeMembers(t).some((m) => is(m, TypeFlag.Number, ctx))) return false;
    const alias = b.aliasOfType(t);
    if (/^int(eger)?$/i.test(alias ? b.symbolName(alias) : "")) return true;
    return b.typeMembers(t).some((m) =>
      b.propertiesOfType(m).some((p) => {
        const v = b.literalValue(b.typeOfSymbol(p));
        return v === "integer" || v === "int";
      }),
    );
  },
  convert: () => ({ type: "integer" }),
};

/** Where an enum member is declared, so members keep the enum's own order. */
function declaredAt(type: TsType, backend: Backend): number {
  const symbol = backend.symbolOfType(type);
  return (symbol && backend.valueDeclaration(symbol)?.pos) ?? 0;
}

/** A whole `enum` (string or numeric members), in declaration order. */
const enumRule: TypeRule = {
  name: "enum",
  supports: (t, ctx) => is(t, TypeFlag.Union, ctx) && is(t, TypeFlag.EnumLiteral, ctx),
  convert(t, ctx) {
    const b = ctx.backend;
    const members = [...b.typeMembers(t)].sort((x, y) => declaredAt(x, b) - declaredAt(y, b));
    const values = members.map((m) => b.literalValue(m));
    const types = [...new Set(values.map(jsonTypeOf))];
    return { type: types.length === 1 ? types[0] : types, enum: values };
  },
};

/** A single literal type (`"metric"`, `3`, `true`) or one enum member. */
const literalRule: TypeRule = {
  name: "literal",
  supports: (t, ctx) => is(t, TypeFlag.StringLiteral | TypeFlag.NumberLiteral | TypeFlag.BooleanLiteral, ctx),
  convert(t, ctx) {
    const value = ctx.backend.literalValue(t);
    return { type: jsonTypeOf(value), const: value };
  },
};

const primitiveRule: TypeRule = {
  name: "primitive",
  supports: (t, ctx) => is(t, PRIMITIVE, ctx),
  convert: (t, ctx) => ({
    type: is(t, TypeFlag.String, ctx) ? "string" : is(t, TypeFlag.Number, ctx) ? "number" : "boolean",
  }),
};

/** Template literal types (`` `user-${number}` ``) become a string with an anchored `pattern`. */
const templateLiteralRule: TypeRule = {
  name: "template-literal",
  supports: (t, ctx) => is(t, TypeFlag.TemplateLiteral, ctx),
  convert: (t, ctx) => ({ type: "string", pattern: templatePattern(t, ctx.backend) }),
};

/** A branded primitive (`string & { __brand: "Email" }`) is its primitive on the wire. */
const brandedPrimitiveRule: TypeRule = {
  name: "branded-primitive",
  supports: (t, ctx) =>
    is(t, TypeFlag.Intersection, ctx) && ctx.backend.typeMembers(t).filter((m) => is(m, PRIMITIVE, ctx)).length === 1,
  convert(t, ctx) {
    const primitive = ctx.backend.typeMembers(t).find((m) => is(m, PRIMITIVE, ctx));
    return primitive ? ctx.convert(primitive, "") : {};
  },
};

/**
 * The schema of a union's members, in the order given: literal unions become `enum`,
 * `X | null` becomes nullable, the rest `anyOf`. `undefined` members are dropped here
 * (optionality is decided by the member or parameter). Every member keeps its own schema,
 * so `string | 3` stays `string` or `3` (the ts-json-schema-generator bug that drops
 * `string` cannot happen here). `node` is the union's annotation, when it names one member.
 */
export function unionSchema(members: readonly UnionMember[], ctx: RuleContext, node?: TypeNode): JsonSchema {
  const isBooleanLiteral = (m: UnionMember) => is(m.type, TypeFlag.BooleanLiteral, ctx);
  const present = members.filter((m) => !is(m.type, TypeFlag.Undefined | TypeFlag.Void, ctx));
  const nullable = present.some((m) => is(m.type, TypeFlag.Null, ctx));
  let rest = present.filter((m) => !is(m.type, TypeFlag.Null, ctx));
  const booleans = rest.filter(isBooleanLiteral);
  const wholeBoolean = booleans.length === 2;
  const booleanAt = rest.findIndex(isBooleanLiteral);
  if (wholeBoolean) rest = rest.filter((m) => !isBooleanLiteral(m));
  const values = rest.map((m) => ctx.backend.literalValue(m.type));
  if (rest.length > 1 && values.every((v) => v !== undefined) && !wholeBoolean) {
    const all = nullable ? [...values, null] : values;
    const types = [...new Set(all.map(jsonTypeOf))];
    return { type: types.length === 1 ? types[0] : types, enum: all };
  }
  // `x?: LabId` is `string | undefined` to the checker: the annotation names the one member.
  const schemas = rest.map((m) => ctx.convert(m.type, "", m.node ?? (rest.length === 1 ? node : undefined)));
  if (wholeBoolean) schemas.splice(booleanAt, 0, { type: "boolean" });
  if (nullable) return withNull(schemas);
  return schemas.length === 1 ? (schemas[0] as JsonSchema) : { anyOf: schemas };
}

/** Unions (see {@link unionSchema}), their members in the order the annotation lists them. */
const unionRule: TypeRule = {
  name: "union",
  supports: (t, ctx) => is(t, TypeFlag.Union, ctx),
  // The checker orders members by when it created each type, which depends on what else
  // it checked first; the annotation's order is the author's.
  convert: (t, ctx, node) =>
    unionSchema(unionMembersInSourceOrder(ctx.backend.typeMembers(t), node, ctx.backend), ctx, node),
};

function withNull(schemas: JsonSchema[]): JsonSchema {
  const only = schemas.length === 1 ? schemas[0] : undefined;
  if (only && typeof only.type === "string" && only.const === undefined && only.enum === undefined) {
    return { ...only, type: [only.type, "null"] };
  }
  if (only && Array.isArray(only.enum)) {
    const types = Array.isArray(only.type) ? only.type : [only.type];
    return { ...only, type: [...types, "null"], enum: [...only.enum, null] };
  }
  return { anyOf: [...schemas, { type: "null" }] };
}

/**
 * `Date` travels as an ISO 8601 date-time string; `x-toolwright-date` (the runtime's
 * `DATE_KEYWORD`) tells the runtime to hand the function a `Date`. Every dialect removes it.
 */
const dateRule: TypeRule = {
  name: "date",
  supports: (t, ctx) => libName(t, ctx.backend) === "Date",
  convert: () => ({ type: "string", format: "date-time", "x-toolwright-date": true }),
};

const LIB_FIXES: Readonly<Record<string, string>> = {
  Map: "use `Record<string, V>` (a plain object)",
  ReadonlyMap: "use `Record<string, V>` (a plain object)",
  WeakMap: "use `Record<string, V>` (a plain object)",
  Set: "use an array `T[]` (add `@uniqueItems` if duplicates matter)",
  ReadonlySet: "use an array `T[]` (add `@uniqueItems` if duplicates matter)",
  WeakSet: "use an array `T[]`",
  Promise: "take the resolved value as the parameter",
};

/** Built-in classes JSON cannot carry: Map, Set, Promise, RegExp, typed arrays ... */
const libClassRule: TypeRule = {
  name: "lib-class",
  supports: (t, ctx) => {
    const name = libName(t, ctx.backend);
    return name !== undefined && name !== "Array" && name !== "ReadonlyArray" && name !== "Object";
  },
  convert: (t, ctx) =>
    ctx.unsupported(
      `\`${ctx.backend.typeToString(t)}\``,
      LIB_FIXES[libName(t, ctx.backend) ?? ""] ?? "use plain data: string, number, boolean, arrays and plain objects",
    ),
};

/** Functions and constructors cannot be sent by a model. */
const functionRule: TypeRule = {
  name: "function",
  supports: (t, ctx) =>
    ctx.backend.signaturesOfType(t, "call").length > 0 || ctx.backend.signaturesOfType(t, "construct").length > 0,
  convert: (t, ctx) =>
    ctx.unsupported(
      `the function type \`${ctx.backend.typeToString(t)}\``,
      "take data instead (e.g. a name or a string literal union) and choose the behaviour inside the tool",
    ),
};

/** Tuples (`[string, number?]`, with rest elements) map to `prefixItems`. */
const tupleRule: TypeRule = {
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

/** `T[]`, `Array<T>`, `readonly T[]` and `ReadonlyArray<T>`. */
const arrayRule: TypeRule = {
  name: "array",
  supports: (t, ctx) => ctx.backend.isArrayType(t),
  convert(t, ctx, node) {
    const [element] = ctx.backend.typeArguments(t);
    return { type: "array", items: element ? ctx.convert(element, "[]", elementNode(node, ctx.backend)) : {} };
  },
};

/** Instances of user classes with methods: JSON would lose the methods (and the prototype). */
const classInstanceRule: TypeRule = {
  name: "class-instance",
  supports: (t, ctx) => {
    const b = ctx.backend;
    const symbol = b.symbolOfType(t);
    return (
      symbol !== undefined &&
      (b.symbolFlags(symbol) & SymbolFlag.Class) !== 0 &&
      !isLibSymbol(symbol, b) &&
      b.propertiesOfType(t).some((p) => (b.symbolFlags(p) & SymbolFlag.Method) !== 0)
    );
  },
  convert: (t, ctx) =>
    ctx.unsupported(
      `an instance of class \`${ctx.backend.typeToString(t)}\` (it has methods)`,
      "take a plain interface with the data fields and build the instance inside the tool",
    ),
};

/**
 * A type's properties in declaration order. For mapped types (Pick, Omit, Partial, ...)
 * the checkers list them in the order of their key union, which TypeScript 5 takes from
 * the order in which it happened to create the key literals and TypeScript 7 from a rule
 * of its own; sorting by declaration makes the schema the same whatever else the program
 * checked first, on every compiler. Keys with no declaration (`Record<"low" | "high", V>`)
 * follow, by name (code unit order).
 */
function propertiesInOrder(t: TsType, backend: Backend): readonly TsSymbol[] {
  const properties = backend.propertiesOfType(t);
  if ((backend.typeFlags(t) & TypeFlag.Mapped) === 0) return properties;
  const place = new Map(
    properties.map((p) => {
      const d: Node | undefined = backend.declarations(p)[0];
      return [p, d ? ([0, d.getSourceFile().fileName, d.pos] as const) : ([1, backend.symbolName(p), 0] as const)];
    }),
  );
  return [...properties].sort((a, b) => {
    const [ga, fa, pa] = place.get(a) as readonly [number, string, number];
    const [gb, fb, pb] = place.get(b) as readonly [number, string, number];
    if (ga !== gb) return ga - gb;
    return fa === fb ? pa - pb : fa < fb ? -1 : 1;
  });
}

/**
 * Interfaces, type literals, mapped and utility types, intersections of objects and
 * `Record<K, V>`: `properties` + `required`, closed unless an index signature allows more.
 */
const objectRule: TypeRule = {
  name: "object",
  supports: (t, ctx) => is(t, TypeFlag.Object | TypeFlag.Intersection | TypeFlag.NonPrimitive, ctx),
  convert(t, ctx) {
    const b = ctx.backend;
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const property of propertiesInOrder(t, b)) {
      const name = b.symbolName(property);
      // Symbol-keyed members (brands) exist only in the type system; JSON never has them.
      if (name.startsWith("__@")) continue;
      const { schema, optional } = ctx.convertProperty(property);
      properties[name] = schema;
      if (!optional) required.push(name);
    }
    const indexes = b.indexInfosOfType(t);
    const index = indexes.find((i) => is(i.keyType, TypeFlag.String | TypeFlag.Number, ctx));
    // `[k: \`x-${string}\`]: string`: only keys matching the template are allowed.
    const patternProperties: Record<string, JsonSchema> = {};
    for (const info of indexes) {
      const keys = is(info.keyType, TypeFlag.Union, ctx) ? b.typeMembers(info.keyType) : [info.keyType];
      for (const key of keys) {
        if (is(key, TypeFlag.TemplateLiteral, ctx)) {
          patternProperties[templatePattern(key, b)] = ctx.convert(info.valueType, "[key]");
        }
      }
    }
    return {
      type: "object",
      ...(Object.keys(properties).length > 0 ? { properties } : {}),
      ...(required.length > 0 ? { required } : {}),
      ...(Object.keys(patternProperties).length > 0 ? { patternProperties } : {}),
      additionalProperties: index ? ctx.convert(index.valueType, "[key]") : is(t, TypeFlag.NonPrimitive, ctx),
    };
  },
};

/** Anything else is reported, never guessed. */
const fallbackRule: TypeRule = {
  name: "fallback",
  supports: () => true,
  convert: (t, ctx) =>
    ctx.unsupported(
      `the type \`${ctx.backend.typeToString(t)}\``,
      "use string, number, boolean, literals, arrays, tuples or plain objects",
    ),
};

/** Every construct's rule, in the order they are tried. */
export const RULES: readonly TypeRule[] = [
  anyUnknownRule,
  typeParameterRule,
  bigintRule,
  symbolRule,
  noValueRule,
  nullRule,
  integerRule,
  enumRule,
  literalRule,
  primitiveRule,
  templateLiteralRule,
  brandedPrimitiveRule,
  unionRule,
  dateRule,
  libClassRule,
  functionRule,
  tupleRule,
  arrayRule,
  classInstanceRule,
  objectRule,
  fallbackRule,
];
