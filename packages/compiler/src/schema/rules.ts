import type { JsonSchema } from "toolwright";
import type ts from "typescript";
import { TS } from "../typescript-host.js";
import type { TypeRule } from "./rule.js";
import { templatePattern } from "./template-pattern.js";
import { isLibSymbol, jsonTypeOf, libName, literalValue } from "./type-facts.js";
import { elementNode, tupleElementNodes, unionMembersInSourceOrder } from "./type-node-hint.js";

/** `any` and `unknown` accept any JSON value. */
const anyUnknownRule: TypeRule = {
  name: "any-unknown",
  supports: (t) => (t.flags & (TS.TypeFlags.Any | TS.TypeFlags.Unknown)) !== 0,
  convert: () => ({}),
};

/** A type parameter left open (`function f<T>(x: T)`): the schema cannot know what T is. */
const typeParameterRule: TypeRule = {
  name: "type-parameter",
  supports: (t) => (t.flags & TS.TypeFlags.TypeParameter) !== 0,
  convert: (t, ctx) =>
    ctx.unsupported(
      `the unresolved type parameter \`${ctx.checker.typeToString(t)}\``,
      "give the parameter a concrete type, or wrap the generic function in one with concrete types",
    ),
};

const bigintRule: TypeRule = {
  name: "bigint",
  supports: (t) => (t.flags & TS.TypeFlags.BigIntLike) !== 0,
  convert: (_t, ctx) => ctx.unsupported("`bigint`", "use `number`, or a `string` of digits and convert it in the tool"),
};

const symbolRule: TypeRule = {
  name: "symbol",
  supports: (t) => (t.flags & TS.TypeFlags.ESSymbolLike) !== 0,
  convert: (_t, ctx) => ctx.unsupported("`symbol`", "use a `string` or a string literal union"),
};

/** `undefined`, `void` and `never` alone carry no JSON value (optional members are handled by the caller). */
const noValueRule: TypeRule = {
  name: "no-value",
  supports: (t) => (t.flags & (TS.TypeFlags.Undefined | TS.TypeFlags.Void | TS.TypeFlags.Never)) !== 0,
  convert: (t, ctx) =>
    ctx.unsupported(`\`${ctx.checker.typeToString(t)}\``, "make the member optional (`?`) or give it a data type"),
};

const nullRule: TypeRule = {
  name: "null",
  supports: (t) => (t.flags & TS.TypeFlags.Null) !== 0,
  convert: () => ({ type: "null" }),
};

/** `integer` through a branded alias: `type Integer = number & { __brand: "integer" }`. */
const integerRule: TypeRule = {
  name: "integer",
  supports(t, ctx) {
    if (!t.isIntersection() || !t.types.some((m) => (m.flags & TS.TypeFlags.Number) !== 0)) return false;
    if (/^int(eger)?$/i.test(t.aliasSymbol?.getName() ?? "")) return true;
    return t.types.some((m) =>
      ctx.checker.getPropertiesOfType(m).some((p) => {
        const v = literalValue(ctx.checker.getTypeOfSymbol(p), ctx.checker);
        return v === "integer" || v === "int";
      }),
    );
  },
  convert: () => ({ type: "integer" }),
};

/** Where an enum member is declared, so members keep the enum's own order. */
function declaredAt(type: ts.Type): number {
  return type.getSymbol()?.valueDeclaration?.pos ?? 0;
}

/** A whole `enum` (string or numeric members), in declaration order. */
const enumRule: TypeRule = {
  name: "enum",
  supports: (t) => t.isUnion() && (t.flags & TS.TypeFlags.EnumLiteral) !== 0,
  convert(t, ctx) {
    const members = [...(t as ts.UnionType).types].sort((a, b) => declaredAt(a) - declaredAt(b));
    const values = members.map((m) => literalValue(m, ctx.checker));
    const types = [...new Set(values.map(jsonTypeOf))];
    return { type: types.length === 1 ? types[0] : types, enum: values };
  },
};

/** A single literal type (`"metric"`, `3`, `true`) or one enum member. */
const literalRule: TypeRule = {
  name: "literal",
  supports: (t) =>
    (t.flags & (TS.TypeFlags.StringLiteral | TS.TypeFlags.NumberLiteral | TS.TypeFlags.BooleanLiteral)) !== 0,
  convert(t, ctx) {
    const value = literalValue(t, ctx.checker);
    return { type: jsonTypeOf(value), const: value };
  },
};

const primitiveRule: TypeRule = {
  name: "primitive",
  supports: (t) => (t.flags & (TS.TypeFlags.String | TS.TypeFlags.Number | TS.TypeFlags.Boolean)) !== 0,
  convert: (t) => ({
    type: t.flags & TS.TypeFlags.String ? "string" : t.flags & TS.TypeFlags.Number ? "number" : "boolean",
  }),
};

/** Template literal types (`` `user-${number}` ``) become a string with an anchored `pattern`. */
const templateLiteralRule: TypeRule = {
  name: "template-literal",
  supports: (t) => (t.flags & TS.TypeFlags.TemplateLiteral) !== 0,
  convert: (t) => ({ type: "string", pattern: templatePattern(t as ts.TemplateLiteralType) }),
};

/** A branded primitive (`string & { __brand: "Email" }`) is its primitive on the wire. */
const brandedPrimitiveRule: TypeRule = {
  name: "branded-primitive",
  supports: (t) =>
    t.isIntersection() &&
    t.types.filter((m) => (m.flags & (TS.TypeFlags.String | TS.TypeFlags.Number | TS.TypeFlags.Boolean)) !== 0)
      .length === 1,
  convert(t, ctx) {
    const primitive = (t as ts.IntersectionType).types.find(
      (m) => (m.flags & (TS.TypeFlags.String | TS.TypeFlags.Number | TS.TypeFlags.Boolean)) !== 0,
    );
    return primitive ? ctx.convert(primitive, "") : {};
  },
};

function isBooleanLiteral(t: ts.Type): boolean {
  return (t.flags & TS.TypeFlags.BooleanLiteral) !== 0;
}

/**
 * Unions: literal unions become `enum`, `X | null` becomes nullable, the rest `anyOf`.
 * `undefined` members are dropped here (optionality is decided by the member or parameter).
 * Every member keeps its own schema, so `string | 3` stays `string` or `3` (the
 * ts-json-schema-generator bug that drops `string` cannot happen here).
 */
const unionRule: TypeRule = {
  name: "union",
  supports: (t) => t.isUnion(),
  convert(t, ctx, node) {
    // Members in the order the annotation lists them: the checker orders them by when it
    // created each type, which depends on what else it checked first.
    const members = unionMembersInSourceOrder((t as ts.UnionType).types, node, ctx.checker).filter(
      (m) => (m.type.flags & (TS.TypeFlags.Undefined | TS.TypeFlags.Void)) === 0,
    );
    const nullable = members.some((m) => (m.type.flags & TS.TypeFlags.Null) !== 0);
    let rest = members.filter((m) => (m.type.flags & TS.TypeFlags.Null) === 0);
    const booleans = rest.filter((m) => isBooleanLiteral(m.type));
    const wholeBoolean = booleans.length === 2;
    const booleanAt = rest.findIndex((m) => isBooleanLiteral(m.type));
    if (wholeBoolean) rest = rest.filter((m) => !isBooleanLiteral(m.type));
    const values = rest.map((m) => literalValue(m.type, ctx.checker));
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
  },
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
  supports: (t) => libName(t) === "Date",
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
  supports: (t) => {
    const name = libName(t);
    return name !== undefined && name !== "Array" && name !== "ReadonlyArray" && name !== "Object";
  },
  convert: (t, ctx) =>
    ctx.unsupported(
      `\`${ctx.checker.typeToString(t)}\``,
      LIB_FIXES[libName(t) ?? ""] ?? "use plain data: string, number, boolean, arrays and plain objects",
    ),
};

/** Functions and constructors cannot be sent by a model. */
const functionRule: TypeRule = {
  name: "function",
  supports: (t, ctx) =>
    ctx.checker.getSignaturesOfType(t, TS.SignatureKind.Call).length > 0 ||
    ctx.checker.getSignaturesOfType(t, TS.SignatureKind.Construct).length > 0,
  convert: (t, ctx) =>
    ctx.unsupported(
      `the function type \`${ctx.checker.typeToString(t)}\``,
      "take data instead (e.g. a name or a string literal union) and choose the behaviour inside the tool",
    ),
};

/** Tuples (`[string, number?]`, with rest elements) map to `prefixItems`. */
const tupleRule: TypeRule = {
  name: "tuple",
  supports: (t, ctx) => ctx.checker.isTupleType(t),
  convert(t, ctx, node) {
    const reference = t as ts.TypeReference;
    const flags = (reference.target as ts.TupleType).elementFlags;
    const firstRest = flags.findIndex((f) => f & TS.ElementFlags.Variable);
    if (firstRest !== -1 && flags.slice(firstRest + 1).some((f) => f & TS.ElementFlags.Fixed)) {
      // JSON Schema fixes positions from the start only: it cannot say "the last item is a number".
      return ctx.unsupported(
        `the tuple \`${ctx.checker.typeToString(t)}\`, whose rest element comes before fixed elements`,
        "put the fixed elements first (e.g. `[number, ...string[]]`) or take an object with named fields",
      );
    }
    const args = ctx.checker.getTypeArguments(reference);
    const nodes = tupleElementNodes(node);
    const prefixItems: JsonSchema[] = [];
    let items: JsonSchema | false = false;
    args.forEach((arg, i) => {
      const schema = ctx.convert(arg, `[${i}]`, nodes[i]);
      if ((flags[i] ?? 0) & TS.ElementFlags.Variable) items = schema;
      else prefixItems.push(schema);
    });
    const minItems = flags.filter((f) => f & TS.ElementFlags.Required).length;
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
  supports: (t, ctx) => ctx.checker.isArrayType(t),
  convert(t, ctx, node) {
    const [element] = ctx.checker.getTypeArguments(t as ts.TypeReference);
    return { type: "array", items: element ? ctx.convert(element, "[]", elementNode(node)) : {} };
  },
};

/** Instances of user classes with methods: JSON would lose the methods (and the prototype). */
const classInstanceRule: TypeRule = {
  name: "class-instance",
  supports: (t, ctx) => {
    const symbol = t.getSymbol();
    return (
      symbol !== undefined &&
      (symbol.flags & TS.SymbolFlags.Class) !== 0 &&
      !isLibSymbol(symbol) &&
      ctx.checker.getPropertiesOfType(t).some((p) => (p.flags & TS.SymbolFlags.Method) !== 0)
    );
  },
  convert: (t, ctx) =>
    ctx.unsupported(
      `an instance of class \`${ctx.checker.typeToString(t)}\` (it has methods)`,
      "take a plain interface with the data fields and build the instance inside the tool",
    ),
};

/**
 * A type's properties in declaration order. For mapped types (Pick, Omit, Partial, ...)
 * the checker lists them in the order of their key union, which follows the order in
 * which it happened to create the key literals; sorting by declaration makes the schema
 * the same whatever else the program checked first (every build path agrees).
 */
function propertiesInOrder(t: ts.Type, checker: ts.TypeChecker): ts.Symbol[] {
  const properties = checker.getPropertiesOfType(t);
  if (((t as ts.ObjectType).objectFlags & TS.ObjectFlags.Mapped) === 0) return properties;
  const places = new Map(properties.map((p) => [p, p.declarations?.[0]]));
  if ([...places.values()].some((d) => d === undefined)) return properties;
  const key = (p: ts.Symbol) => {
    const d = places.get(p) as ts.Declaration;
    return [d.getSourceFile().fileName, d.pos] as const;
  };
  return [...properties].sort((a, b) => {
    const [fa, pa] = key(a);
    const [fb, pb] = key(b);
    return fa === fb ? pa - pb : fa < fb ? -1 : 1;
  });
}

/**
 * Interfaces, type literals, mapped and utility types, intersections of objects and
 * `Record<K, V>`: `properties` + `required`, closed unless an index signature allows more.
 */
const objectRule: TypeRule = {
  name: "object",
  supports: (t) => (t.flags & (TS.TypeFlags.Object | TS.TypeFlags.Intersection | TS.TypeFlags.NonPrimitive)) !== 0,
  convert(t, ctx) {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const property of propertiesInOrder(t, ctx.checker)) {
      // Symbol-keyed members (brands) exist only in the type system; JSON never has them.
      if (property.getName().startsWith("__@")) continue;
      const { schema, optional } = ctx.convertProperty(property);
      properties[property.getName()] = schema;
      if (!optional) required.push(property.getName());
    }
    const indexes = ctx.checker.getIndexInfosOfType(t);
    const index = indexes.find((i) => (i.keyType.flags & (TS.TypeFlags.String | TS.TypeFlags.Number)) !== 0);
    // `[k: \`x-${string}\`]: string`: only keys matching the template are allowed.
    const patternProperties: Record<string, JsonSchema> = {};
    for (const info of indexes) {
      const keys = info.keyType.isUnion() ? info.keyType.types : [info.keyType];
      for (const key of keys) {
        if (key.flags & TS.TypeFlags.TemplateLiteral) {
          patternProperties[templatePattern(key as ts.TemplateLiteralType)] = ctx.convert(info.type, "[key]");
        }
      }
    }
    return {
      type: "object",
      ...(Object.keys(properties).length > 0 ? { properties } : {}),
      ...(required.length > 0 ? { required } : {}),
      ...(Object.keys(patternProperties).length > 0 ? { patternProperties } : {}),
      additionalProperties: index ? ctx.convert(index.type, "[key]") : (t.flags & TS.TypeFlags.NonPrimitive) !== 0,
    };
  },
};

/** Anything else is reported, never guessed. */
const fallbackRule: TypeRule = {
  name: "fallback",
  supports: () => true,
  convert: (t, ctx) =>
    ctx.unsupported(
      `the type \`${ctx.checker.typeToString(t)}\``,
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
