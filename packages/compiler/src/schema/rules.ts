import type { JsonSchema } from "toolwright";
import { type Backend, SymbolFlag, type TsType, TypeFlag } from "../backend/backend.js";
import type { TypeNode } from "../backend/syntax.js";
import { arrayIntersectionRule, arrayRule, tupleRule } from "./array-rules.js";
import { holdsNoValue } from "./no-value.js";
import { objectRule } from "./object-rule.js";
import type { RuleContext, TypeRule } from "./rule.js";
import { templatePattern } from "./template-pattern.js";
import { hasFlag, isLibSymbol, jsonTypeOf, libName, valueCore } from "./type-facts.js";
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

const NO_VALUE = { reason: "which no JSON value fits" };

/**
 * `undefined`, `void` and `never` alone: no JSON value fits them. An optional member of
 * such a type is left out by the converter (its key must be absent), so what comes here
 * is required.
 */
const noValueRule: TypeRule = {
  name: "no-value",
  supports: (t, ctx) => is(t, TypeFlag.Undefined | TypeFlag.Void | TypeFlag.Never, ctx),
  convert: (t, ctx) =>
    ctx.unsupported(
      `\`${ctx.backend.typeToString(t)}\``,
      "give it a data type, or make it optional (`?`) to say the key is absent",
      NO_VALUE,
    ),
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

/**
 * A whole `enum` (string or numeric members), in declaration order. A member whose value
 * the checker does not know (`Custom = "x" as any`, `Now = Date.now()`) is reported where
 * it is declared; members computed from constants (`B = A << 1`) have known values.
 */
const enumRule: TypeRule = {
  name: "enum",
  supports: (t, ctx) =>
    is(t, TypeFlag.EnumLiteral, ctx) && (is(t, TypeFlag.Union, ctx) || ctx.backend.literalValue(t) === undefined),
  convert(t, ctx) {
    const b = ctx.backend;
    const members = is(t, TypeFlag.Union, ctx)
      ? [...b.typeMembers(t)].sort((x, y) => declaredAt(x, b) - declaredAt(y, b))
      : [t];
    const values = members.map((m) => b.literalValue(m));
    const computed = members.filter((_m, i) => values[i] === undefined);
    for (const member of computed) {
      const symbol = b.symbolOfType(member);
      const at = symbol && b.valueDeclaration(symbol);
      ctx.unsupported(
        `the enum member \`${b.typeToString(member)}\``,
        "give the member a constant value (a number or string literal, or an expression of constants such as `1 << 2`)",
        { reason: "whose value is only known at run time, so no schema can list it", ...(at ? { at } : {}) },
      );
    }
    if (computed.length > 0) return {};
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

/**
 * A branded or tagged value is its primitive or literal on the wire: `string & { __brand: "Email" }`,
 * `"fast" & Record<never, never>` (the autocomplete idiom), `boolean & { __meta?: object }`.
 */
const brandedValueRule: TypeRule = {
  name: "branded-value",
  supports: (t, ctx) => valueCore(t, ctx.backend) !== t,
  convert: (t, ctx) => ctx.convert(valueCore(t, ctx.backend), ""),
};

/**
 * The schema of a union's members, in the order given: literal unions become `enum`,
 * `X | null` becomes nullable, the rest `anyOf`. `undefined` members are dropped here
 * (optionality is decided by the member or parameter). Every member keeps its own schema,
 * so `string | 3` stays `string` or `3` (the ts-json-schema-generator bug that drops
 * `string` cannot happen here). `node` is the union's annotation, when it names one member.
 */
export function unionSchema(members: readonly UnionMember[], ctx: RuleContext, node?: TypeNode): JsonSchema {
  const b = ctx.backend;
  // `true & { __meta?: object }` counts as `true`, `"fast" & {}` as `"fast"`.
  const core = (m: UnionMember) => valueCore(m.type, b);
  const isBooleanLiteral = (m: UnionMember) => is(core(m), TypeFlag.BooleanLiteral, ctx);
  // `undefined` and branches no JSON value fits (`[never]`) add nothing.
  const present = members.filter((m) => !holdsNoValue(m.type, b));
  if (present.length === 0) {
    return ctx.unsupported(
      `\`${members.map((m) => b.typeToString(m.type)).join(" | ")}\``,
      "give it a data type, or make it optional (`?`) to say the key is absent",
      NO_VALUE,
    );
  }
  const nullable = present.some((m) => is(m.type, TypeFlag.Null, ctx));
  let rest = present.filter((m) => !is(m.type, TypeFlag.Null, ctx));
  const booleans = rest.filter(isBooleanLiteral);
  const wholeBoolean = booleans.length === 2;
  const booleanAt = rest.findIndex(isBooleanLiteral);
  if (wholeBoolean) rest = rest.filter((m) => !isBooleanLiteral(m));
  const values = rest.map((m) => b.literalValue(core(m)));
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
 * The library class a type is an instance of, as {@link libName}, for the two rules that
 * look for one. An array's is `Array` or `ReadonlyArray`, which neither rule takes: it is
 * not asked (over TypeScript 7 that symbol, declared across a dozen lib files, takes the
 * server 5-8 ms to send).
 */
function libClassName(t: TsType, ctx: RuleContext): string | undefined {
  return ctx.backend.isArrayType(t) ? undefined : libName(t, ctx.backend);
}

/**
 * `Date` travels as an ISO 8601 date-time string; `x-toolwright-date` (the runtime's
 * `DATE_KEYWORD`) tells the runtime to hand the function a `Date`. Every dialect removes it.
 */
const dateRule: TypeRule = {
  name: "date",
  supports: (t, ctx) => libClassName(t, ctx) === "Date",
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
    const name = libClassName(t, ctx);
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
  brandedValueRule,
  unionRule,
  dateRule,
  libClassRule,
  functionRule,
  tupleRule,
  arrayRule,
  arrayIntersectionRule,
  classInstanceRule,
  objectRule,
  fallbackRule,
];
