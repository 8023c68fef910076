import type { JsonSchema } from "toolwright";
import { type Backend, type TsSignature, type TsType, TypeFlag } from "./backend/backend.js";
import type { Node, TypeNode } from "./backend/syntax.js";
import type { Problem } from "./derive-parameters.js";
import { DiagnosticCode } from "./diagnostics.js";
import { SchemaConverter } from "./schema/SchemaConverter.js";
import { hintOf } from "./schema/type-node-hint.js";
import { uncheckedConstraints } from "./schema/unchecked-constraints.js";
import { type UnionMember, unionMembersInSourceOrder } from "./schema/union-order.js";

const UNCHECKABLE = TypeFlag.Void | TypeFlag.Undefined | TypeFlag.Any | TypeFlag.Unknown | TypeFlag.Never;

/** True for TypeScript's own `Promise<T>` (declared in a library file). */
function isPromise(type: TsType, backend: Backend): boolean {
  const symbol = backend.symbolOfType(type);
  return (
    symbol !== undefined &&
    backend.symbolName(symbol) === "Promise" &&
    backend.declarationFiles(symbol).some((file) => backend.isDefaultLibraryFile(file))
  );
}

/** The members of `type` in the order its annotation `node` writes them (one member when it is no union). */
function membersOf(type: TsType, node: TypeNode | undefined, backend: Backend): UnionMember[] {
  return backend.typeFlags(type) & TypeFlag.Union
    ? unionMembersInSourceOrder(backend.typeMembers(type), hintOf(node, backend).node, backend)
    : [{ type, node }];
}

/**
 * What a caller of a function returning `type` gets once it has awaited the result, as a
 * list of union members: `Promise<A> | B` gives `A` and `B`, `Promise<Promise<A>>` gives
 * `A`. Member by member, with the same rule on every compiler (TypeScript 7's API cannot
 * build the union `A | B` that `getAwaitedType` would); duplicates collapse (`Promise<T> | T`
 * is `T`), and the members keep the order the annotation writes them in.
 */
function awaitedMembers(type: TsType, node: TypeNode | undefined, backend: Backend): UnionMember[] {
  const out: UnionMember[] = [];
  const add = (member: UnionMember) => {
    if (!out.some((m) => m.type === member.type)) out.push(member);
  };
  for (const member of membersOf(type, node, backend)) {
    if (!isPromise(member.type, backend)) {
      add(member);
      continue;
    }
    const [inner] = backend.typeArguments(member.type);
    const written = hintOf(member.node, backend).node;
    const innerNode = written && backend.syntax.isTypeReferenceNode(written) ? written.typeArguments?.[0] : undefined;
    for (const awaited of inner ? awaitedMembers(inner, innerNode, backend) : []) add(awaited);
  }
  return out;
}

/**
 * The return type's schema (promises awaited), or undefined when it cannot be checked. A
 * return type JSON cannot carry only means no output check; a failure inside toolwright is
 * still reported. The return annotation, when written, orders union members as for a
 * parameter.
 */
export function outputSchema(
  signature: TsSignature,
  declaration: Node,
  backend: Backend,
  problems: Problem[],
): JsonSchema | undefined {
  const returned = backend.returnTypeOfSignature(signature);
  const annotation = (declaration as { readonly type?: TypeNode }).type;
  const members = awaitedMembers(returned, annotation, backend);
  if (members.length === 0 || members.some((m) => (backend.typeFlags(m.type) & UNCHECKABLE) !== 0)) return undefined;
  const converter = new SchemaConverter(backend);
  const promised = membersOf(returned, annotation, backend).some((m) => isPromise(m.type, backend));
  const [only] = members;
  // A return type with no promise in it is mapped as it is (a recursive union keeps its `$ref`).
  const schema = !promised
    ? converter.convertRoot(returned, "return", annotation)
    : members.length === 1 && only
      ? converter.convertRoot(only.type, "return", only.node)
      : converter.convertRootUnion(members, "return", returned);
  for (const issue of converter.issues.filter((i) => i.kind === "internal")) {
    problems.push({
      node: declaration,
      code: DiagnosticCode.internalError,
      message: `toolwright failed to map the return type: ${issue.construct}. Fix: ${issue.fix}.`,
    });
  }
  if (converter.issues.length > 0) return undefined;
  const output = Object.keys(converter.defs).length > 0 ? { ...schema, $defs: converter.defs } : schema;
  for (const { path, message } of uncheckedConstraints(output, "return")) {
    problems.push({
      node: declaration,
      code: DiagnosticCode.uncheckedConstraint,
      message: `the return type's \`${path}\` ${message}.`,
    });
  }
  return output;
}
