import type { JsonSchema } from "toolwright";
import { type Backend, type IndexInfo, SymbolFlag, type TsSymbol, type TsType, TypeFlag } from "../backend/backend.js";
import type { Node, TypeNode } from "../backend/syntax.js";
import { holdsNoValue } from "./no-value.js";
import type { RuleContext, TypeRule } from "./rule.js";
import { templatePattern } from "./template-pattern.js";
import { hasFlag, isDataProperty, isLibSymbol, valueCore } from "./type-facts.js";
import { hintOf } from "./type-node-hint.js";

/**
 * The keys a numeric index signature (`[row: number]: T`, `Record<number, T>`, the reverse
 * map of a numeric enum) holds: TypeScript takes a key there when `String(Number(key))`
 * gives the key back (`"0"`, `"-1"`, `"1.5"`, `"1e+21"`, `"NaN"`), so not `"01"`, `"1.0"`
 * or `"-0"`. The digits are not checked against what a double can hold
 * (`"12345678901234567890"` matches).
 */
export const NUMERIC_KEY =
  "^(?:0|NaN|-?(?:Infinity|[1-9]\\d{0,20}(?:\\.\\d*[1-9])?|0\\.0{0,5}[1-9](?:\\d*[1-9])?|[1-9](?:\\.\\d*[1-9])?e(?:\\+(?:2[1-9]|[3-9]\\d|[12]\\d\\d|30[0-8])|-(?:[7-9]|[1-9]\\d|[12]\\d\\d|3[01]\\d|32[0-4]))))$";

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
 * The `@pattern` of the key in `Record<Currency, V>` written in the source, with
 * `/** @pattern ^[A-Z]{3}$ *\/ type Currency = string`: the checker's index signature says
 * only `string`. The alias closest to the use wins, as for values.
 */
function recordKeyPattern(node: TypeNode | undefined, backend: Backend): string | undefined {
  const S = backend.syntax;
  const key =
    node && S.isTypeReferenceNode(node) && node.typeArguments?.length === 2 ? node.typeArguments[0] : undefined;
  if (!node || !key || !S.isTypeReferenceNode(node)) return undefined;
  let symbol = backend.symbolAtLocation(node.typeName);
  if (symbol && backend.symbolFlags(symbol) & SymbolFlag.Alias) symbol = backend.aliasedSymbol(symbol);
  if (!symbol || backend.symbolName(symbol) !== "Record" || !isLibSymbol(symbol, backend)) return undefined;
  return hintOf(key, backend)
    .aliases.flatMap((alias) => alias.doc.tags.filter((t) => t.tag === "pattern").map((t) => t.value))
    .at(-1);
}

/** How an index signature's keys are written: any key, a pattern, or none JSON has (symbols). */
function keyPatterns(info: IndexInfo, backend: Backend): ("any" | string)[] {
  const keys = hasFlag(info.keyType, TypeFlag.Union, backend) ? backend.typeMembers(info.keyType) : [info.keyType];
  return keys.flatMap((key) => {
    // `[id: string & { __brand?: "id" }]: V` is keyed by strings.
    const core = valueCore(key, backend);
    if (hasFlag(core, TypeFlag.String, backend)) return ["any"];
    if (hasFlag(core, TypeFlag.Number, backend)) return [NUMERIC_KEY];
    if (hasFlag(core, TypeFlag.TemplateLiteral, backend)) return [templatePattern(core, backend)];
    return [];
  });
}

/** An index signature's value: `false` when no JSON value fits (`Record<string, never>` holds only `{}`). */
function indexValue(info: IndexInfo, ctx: RuleContext): JsonSchema | false {
  return holdsNoValue(info.valueType, ctx.backend) ? false : ctx.convert(info.valueType, "[key]");
}

/**
 * Interfaces, type literals, mapped and utility types, intersections of objects and
 * `Record<K, V>`: `properties` + `required`, closed unless an index signature allows more.
 * Getters without a setter and methods are left out: they are not data. A class's accessor
 * with a setter is optional: it may be sent, and an instance's JSON does not write it.
 */
export const objectRule: TypeRule = {
  name: "object",
  supports: (t, ctx) => hasFlag(t, TypeFlag.Object | TypeFlag.Intersection | TypeFlag.NonPrimitive, ctx.backend),
  convert(t, ctx, node) {
    const b = ctx.backend;
    const properties: Record<string, JsonSchema | false> = {};
    const required: string[] = [];
    const absent: string[] = [];
    const symbol = b.symbolOfType(t);
    const isClass = symbol !== undefined && (b.symbolFlags(symbol) & SymbolFlag.Class) !== 0;
    for (const property of propertiesInOrder(t, b)) {
      if (!isDataProperty(property, b)) continue;
      const name = b.symbolName(property);
      const converted = ctx.convertProperty(property);
      if (!converted) {
        absent.push(name);
        continue;
      }
      properties[name] = converted.schema;
      // A class's accessor lives on its prototype: an instance's JSON does not have it.
      const accessor = (b.symbolFlags(property) & (SymbolFlag.GetAccessor | SymbolFlag.SetAccessor)) !== 0;
      if (!converted.optional && !(isClass && accessor)) required.push(name);
    }
    let additionalProperties: JsonSchema | boolean = hasFlag(t, TypeFlag.NonPrimitive, b);
    const patternProperties: Record<string, JsonSchema | false> = {};
    const keyPattern = recordKeyPattern(node, b);
    for (const info of b.indexInfosOfType(t)) {
      for (const pattern of keyPatterns(info, b)) {
        if (pattern !== "any") patternProperties[pattern] = indexValue(info, ctx);
        else if (keyPattern !== undefined) patternProperties[keyPattern] = indexValue(info, ctx);
        else additionalProperties = indexValue(info, ctx);
      }
    }
    // A key no value fits must be absent: said with `false` only where some other rule would allow it.
    const patterns = Object.entries(patternProperties);
    if (additionalProperties === false && patterns.every(([, value]) => value === false)) {
      for (const [pattern] of patterns) delete patternProperties[pattern];
    }
    if (additionalProperties !== false || Object.keys(patternProperties).length > 0) {
      for (const name of absent) properties[name] = false;
    }
    return {
      type: "object",
      ...(Object.keys(properties).length > 0 ? { properties } : {}),
      ...(required.length > 0 ? { required } : {}),
      ...(Object.keys(patternProperties).length > 0 ? { patternProperties } : {}),
      additionalProperties,
    };
  },
};
