import type ts from "typescript";
import { type DocBlock, readDoc } from "../docs.js";
import { TS } from "../typescript-host.js";

/**
 * What the written annotation says beyond the checker's type. The checker erases aliases
 * of primitives (`type LabId = string` is just `string`) and orders union members by
 * creation, not by source; the annotation keeps both.
 */
export interface NodeHint {
  /** The structural node the type was written as, after following plain aliases. */
  readonly node: ts.TypeNode | undefined;
  /** Aliases passed through on the way, innermost first. */
  readonly aliases: readonly { readonly name: string; readonly doc: DocBlock }[];
}

const NO_HINT: NodeHint = { node: undefined, aliases: [] };
// Alias chains are short in practice; the cap only stops a pathological cycle.
const MAX_ALIAS_HOPS = 16;

function aliasDeclaration(node: ts.TypeReferenceNode, checker: ts.TypeChecker): ts.TypeAliasDeclaration | undefined {
  let symbol = checker.getSymbolAtLocation(node.typeName);
  if (symbol && symbol.flags & TS.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const declaration = symbol?.declarations?.find(TS.isTypeAliasDeclaration);
  if (!declaration || declaration.getSourceFile().hasNoDefaultLib) return undefined;
  return declaration;
}

/**
 * Follows `node` through parentheses, `readonly` and plain (non-generic) type aliases,
 * collecting each alias's name and TSDoc. A generic alias stops the walk: its body is
 * written in terms of type parameters, which no longer match the instantiated type.
 */
export function hintOf(node: ts.TypeNode | undefined, checker: ts.TypeChecker): NodeHint {
  if (!node) return NO_HINT;
  const aliases: { name: string; doc: DocBlock }[] = [];
  let current: ts.TypeNode = node;
  for (let hop = 0; hop < MAX_ALIAS_HOPS; hop++) {
    if (TS.isParenthesizedTypeNode(current)) current = current.type;
    else if (TS.isTypeOperatorNode(current) && current.operator === TS.SyntaxKind.ReadonlyKeyword)
      current = current.type;
    else if (TS.isTypeReferenceNode(current)) {
      const declaration = aliasDeclaration(current, checker);
      if (!declaration) break;
      aliases.unshift({ name: declaration.name.text, doc: readDoc(declaration) });
      if (current.typeArguments || declaration.typeParameters) return { node: undefined, aliases };
      current = declaration.type;
    } else break;
  }
  return { node: current, aliases };
}

/** The element's node of an array annotation (`T[]`, `Array<T>`, `ReadonlyArray<T>`). */
export function elementNode(node: ts.TypeNode | undefined): ts.TypeNode | undefined {
  if (!node) return undefined;
  if (TS.isArrayTypeNode(node)) return node.elementType;
  if (TS.isTypeReferenceNode(node) && node.typeArguments?.length === 1) return node.typeArguments[0];
  return undefined;
}

/** The nodes of a tuple annotation's elements, rest and optional markers removed. */
export function tupleElementNodes(node: ts.TypeNode | undefined): readonly (ts.TypeNode | undefined)[] {
  if (!node || !TS.isTupleTypeNode(node)) return [];
  return node.elements.map((element) => {
    let inner: ts.TypeNode = TS.isNamedTupleMember(element) ? element.type : element;
    if (TS.isRestTypeNode(inner) || TS.isOptionalTypeNode(inner)) inner = inner.type;
    return TS.isRestTypeNode(element) || (TS.isNamedTupleMember(element) && element.dotDotDotToken)
      ? elementNode(inner)
      : inner;
  });
}

/**
 * Pairs each member of a union type with the node it was written as (when the hint is a
 * union annotation), and orders the members as the source lists them. Members the
 * annotation does not name (from a nested alias, say) keep the checker's order, after
 * the named ones.
 */
export function unionMembersInSourceOrder(
  members: readonly ts.Type[],
  node: ts.TypeNode | undefined,
  checker: ts.TypeChecker,
): { type: ts.Type; node: ts.TypeNode | undefined }[] {
  if (!node || !TS.isUnionTypeNode(node)) return members.map((type) => ({ type, node: undefined }));
  const order: { type: ts.Type; node: ts.TypeNode | undefined }[] = [];
  const place = new Map<ts.Type, number>();
  for (const written of node.types) {
    const type = checker.getTypeFromTypeNode(written);
    const expanded = type.isUnion() ? type.types : [type];
    for (const member of expanded) {
      if (place.has(member)) continue;
      place.set(member, order.length);
      order.push({ type: member, node: expanded.length === 1 ? written : undefined });
    }
  }
  const known = order.filter((entry) => members.includes(entry.type));
  const rest = members.filter((member) => !place.has(member)).map((type) => ({ type, node: undefined }));
  return [...known, ...rest];
}
