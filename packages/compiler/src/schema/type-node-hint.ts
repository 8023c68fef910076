import { type Backend, SymbolFlag, TypeFlag } from "../backend/backend.js";
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

/** The type alias `node` refers to, or undefined; TypeScript's own (`Exclude`, `Record`) only when `lib` says so. */
function aliasDeclaration(node: TypeReferenceNode, backend: Backend, lib = false): TypeAliasDeclaration | undefined {
  let symbol = backend.symbolAtLocation(node.typeName);
  if (symbol && backend.symbolFlags(symbol) & SymbolFlag.Alias) symbol = backend.aliasedSymbol(symbol);
  const declaration = symbol && backend.declarations(symbol).find((d) => backend.syntax.isTypeAliasDeclaration(d));
  if (!declaration || (!lib && backend.isDefaultLibraryFile(declaration.getSourceFile().fileName))) return undefined;
  return declaration as TypeAliasDeclaration;
}

/** The written members of type arguments, through parentheses and unions. */
function writtenMembers(nodes: readonly TypeNode[], backend: Backend): TypeNode[] {
  const S = backend.syntax;
  return nodes.flatMap((node) => {
    let inner = node;
    while (S.isParenthesizedTypeNode(inner)) inner = inner.type;
    return S.isUnionTypeNode(inner) ? writtenMembers(inner.types, backend) : [inner];
  });
}

/**
 * The argument a generic alias's result is, as written: `Exclude<Currency | number, number>`
 * is the `string` written as `Currency`, a conditional `NonNull<Code | null>` is `Code`,
 * and a union result comes from the written union holding its members. Through it, the
 * argument's aliases (and their TSDoc) still apply, which the checker's type has lost.
 */
function passedThrough(node: TypeReferenceNode, backend: Backend): TypeNode | undefined {
  const S = backend.syntax;
  const args = node.typeArguments ?? [];
  const result = backend.typeFromTypeNode(node);
  const same = writtenMembers(args, backend).filter((member) => backend.typeFromTypeNode(member) === result);
  if (same.length === 1) return same[0];
  if (!(backend.typeFlags(result) & TypeFlag.Union)) return undefined;
  const wanted = backend.typeMembers(result);
  return args.find((arg) => {
    if (!S.isUnionTypeNode(arg)) return false;
    const written = writtenMembers([arg], backend).flatMap((m) => {
      const t = backend.typeFromTypeNode(m);
      return backend.typeFlags(t) & TypeFlag.Union ? backend.typeMembers(t) : [t];
    });
    return wanted.every((member) => written.includes(member));
  });
}

/**
 * Follows `node` through parentheses, `readonly` and plain (non-generic) type aliases,
 * collecting each alias's name and TSDoc. A generic alias stops the walk (its body is
 * written in terms of type parameters, which no longer match the instantiated type),
 * unless its result is one of the arguments written at the use ({@link passedThrough}).
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
      if (declaration) aliases.unshift({ name: declaration.name.text, doc: readDoc(declaration, S) });
      if (current.typeArguments && aliasDeclaration(current, backend, true)) {
        const through = passedThrough(current, backend);
        if (through) current = through;
        else return { node: declaration ? undefined : current, aliases, typeArguments };
      } else if (!declaration) break;
      else if (current.typeArguments || declaration.typeParameters) return { node: undefined, aliases, typeArguments };
      else current = declaration.type;
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
