import { type Backend, type TsType, TypeFlag } from "../backend/backend.js";
import type { TypeNode } from "../backend/syntax.js";
import { hintOf } from "./type-node-hint.js";

/** A union member with the node it was written as, when the annotation names it alone. */
export interface UnionMember {
  readonly type: TsType;
  readonly node: TypeNode | undefined;
}

/** The sort groups of {@link canonicalOrder}, in order. */
enum Group {
  StringLiteral,
  NumberLiteral,
  BooleanLiteral,
  Declared,
  Other,
}

interface SortKey {
  readonly group: Group;
  readonly value: string | number;
  readonly file: string;
  readonly pos: number;
  /** The type's text, asked only when the rest ties (it costs a request on TypeScript 7). */
  readonly text: () => string;
}

/**
 * Each type's key, worked out once: a few types (`undefined`, `number`, a declared
 * interface) are members of most unions (2,600 keys of 205 types at 1,000 tools). A type
 * belongs to one program, so its key holds for as long as the type lives.
 */
const keys = new WeakMap<TsType, SortKey>();

function sortKey(type: TsType, backend: Backend): SortKey {
  let key = keys.get(type);
  if (!key) {
    key = keyOf(type, backend);
    keys.set(type, key);
  }
  return key;
}

function keyOf(type: TsType, backend: Backend): SortKey {
  const flags = backend.typeFlags(type);
  const value = backend.literalValue(type);
  const none = { value: "", file: "", pos: 0, text: () => "" };
  if (flags & TypeFlag.StringLiteral) return { ...none, group: Group.StringLiteral, value: String(value) };
  if (flags & TypeFlag.NumberLiteral) return { ...none, group: Group.NumberLiteral, value: Number(value) };
  if (flags & TypeFlag.BooleanLiteral) return { ...none, group: Group.BooleanLiteral, value: value ? 1 : 0 };
  const text = () => backend.typeToString(type);
  const symbol = backend.aliasOfType(type) ?? backend.symbolOfType(type);
  const [file] = symbol ? backend.declarationFiles(symbol) : [];
  if (symbol && file !== undefined && !backend.isDefaultLibraryFile(file)) {
    const pos = backend.declarations(symbol)[0]?.pos ?? 0;
    return { ...none, group: Group.Declared, file, pos, text };
  }
  return { ...none, group: Group.Other, text };
}

function compare(a: SortKey, b: SortKey): number {
  if (a.group !== b.group) return a.group - b.group;
  if (a.value !== b.value) return a.value < b.value ? -1 : 1;
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  if (a.pos !== b.pos) return a.pos - b.pos;
  const [textA, textB] = [a.text(), b.text()];
  return textA === textB ? 0 : textA < textB ? -1 : 1;
}

/**
 * The order of a union's members where no annotation gives one (a type argument, a mapped
 * or inferred type): the checkers order them differently (TypeScript 5 by when it created
 * each type, TypeScript 7 by a rule of its own), so toolwright uses one rule of its own on
 * every compiler. String literals first, by value (code unit order), then number literals
 * ascending, then `false` before `true`, then types declared in the project by where they
 * are declared (file, then position), then the rest by their text.
 */
export function canonicalOrder(members: readonly TsType[], backend: Backend): TsType[] {
  return [...members].sort((a, b) => compare(sortKey(a, backend), sortKey(b, backend)));
}

/**
 * Pairs each member of a union type with the node it was written as (when the hint is a
 * union annotation), and orders the members as the source lists them, through aliases of
 * unions written inside it (`Status | null`). Members the annotation does not name, and
 * every member of a union with no annotation, follow {@link canonicalOrder}, after the
 * named ones.
 */
export function unionMembersInSourceOrder(
  members: readonly TsType[],
  node: TypeNode | undefined,
  backend: Backend,
): UnionMember[] {
  const unnamed = (types: readonly TsType[]) =>
    canonicalOrder(types, backend).map((type) => ({ type, node: undefined }));
  if (!node || !backend.syntax.isUnionTypeNode(node)) return unnamed(members);
  const order: UnionMember[] = [];
  const placed = new Set<TsType>();
  for (const written of node.types) {
    const type = backend.typeFromTypeNode(written);
    const expanded =
      backend.typeFlags(type) & TypeFlag.Union
        ? unionMembersInSourceOrder(backend.typeMembers(type), hintOf(written, backend).node, backend)
        : [{ type, node: written }];
    for (const member of expanded) {
      if (placed.has(member.type)) continue;
      placed.add(member.type);
      order.push(expanded.length === 1 ? member : { type: member.type, node: undefined });
    }
  }
  const known = order.filter((entry) => members.includes(entry.type));
  return [...known, ...unnamed(members.filter((member) => !placed.has(member)))];
}
