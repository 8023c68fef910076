import { type Backend, SymbolFlag } from "../backend/backend.js";
import type { TypeAliasDeclaration, TypeNode, TypeReferenceNode } from "../backend/syntax.js";
import { type DocBlock, readDoc } from "../docs.js";

/**
 * What the written annotation says beyond the checker's type. The checker erases aliases
 * of primitives (`type LabId = string` is just `string`) and orders union members by
 * creation, not by source; the annotation keeps both.
 */
export interface NodeHint {
  /** The structural node the type was written as, after following plain aliases. */
  readonly node: TypeNode | undefined;
  /** Aliases passed through on the way, innermost first. */
  readonly aliases: readonly { readonly name: string; readonly doc: DocBlock }[];
  /**
   * The type arguments written on the way (`Page<"z" | "y">`): where the generic's body
   * uses its parameter, the checker's type has no annotation left, but these nodes say how
   * the argument was written.
   */
  readonly typeArguments: readonly TypeNode[];
}

const NO_HINT: NodeHint = { node: undefined, aliases: [], typeArguments: [] };
// Alias chains are short in practice; the cap only stops a pathological cycle.
const MAX_ALIAS_HOPS = 16;

function aliasDeclaration(node: TypeReferenceNode, backend: Backend): TypeAliasDeclaration | undefined {
  let symbol = backend.symbolAtLocation(node.typeName);
  if (symbol && backend.symbolFlags(symbol) & SymbolFlag.Alias) symbol = backend.aliasedSymbol(symbol);
  const declaration = symbol && backend.declarations(symbol).find((d) => backend.syntax.isTypeAliasDeclaration(d));
  if (!declaration || backend.isDefaultLibraryFile(declaration.getSourceFile().fileName)) return undefined;
  return declaration as TypeAliasDeclaration;
}

/**
 * Follows `node` through parentheses, `readonly` and plain (non-generic) type aliases,
 * collecting each alias's name and TSDoc. A generic alias stops the walk: its body is
 * written in terms of type parameters, which no longer match the instantiated type.
 */
export function hintOf(node: TypeNode | undefined, backend: Backend): NodeHint {
  if (!node) return NO_HINT;
  const S = backend.syntax;
  const aliases: { name: string; doc: DocBlock }[] = [];
  const typeArguments: TypeNode[] = [];
  let current: TypeNode = node;
  for (let hop = 0; hop < MAX_ALIAS_HOPS; hop++) {
    if (S.isParenthesizedTypeNode(current)) current = current.type;
    else if (S.isReadonlyTypeOperator(current)) current = current.type;
    else if (S.isTypeReferenceNode(current)) {
      typeArguments.push(...(current.typeArguments ?? []));
      const declaration = aliasDeclaration(current, backend);
      if (!declaration) break;
      aliases.unshift({ name: declaration.name.text, doc: readDoc(declaration, S) });
      if (current.typeArguments || declaration.typeParameters) return { node: undefined, aliases, typeArguments };
      current = declaration.type;
    } else break;
  }
  return { node: current, aliases, typeArguments };
}

/** The element's node of an array annotation (`T[]`, `Array<T>`, `ReadonlyArray<T>`). */
export function elementNode(node: TypeNode | undefined, backend: Backend): TypeNode | undefined {
  if (!node) return undefined;
  const S = backend.syntax;
  if (S.isArrayTypeNode(node)) return node.elementType;
  if (S.isTypeReferenceNode(node) && node.typeArguments?.length === 1) return node.typeArguments[0];
  return undefined;
}

/** The nodes of a tuple annotation's elements, rest and optional markers removed. */
export function tupleElementNodes(node: TypeNode | undefined, backend: Backend): readonly (TypeNode | undefined)[] {
  const S = backend.syntax;
  if (!node || !S.isTupleTypeNode(node)) return [];
  return node.elements.map((element) => {
    let inner: TypeNode = S.isNamedTupleMember(element) ? element.type : element;
    if (S.isRestTypeNode(inner) || S.isOptionalTypeNode(inner)) inner = inner.type;
    return S.isRestTypeNode(element) || (S.isNamedTupleMember(element) && element.dotDotDotToken)
      ? elementNode(inner, backend)
      : inner;
  });
}
