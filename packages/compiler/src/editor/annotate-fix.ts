import { type Backend, TypeFlag } from "../backend/backend.js";
import type { ParameterDeclaration } from "../backend/syntax.js";
import type { TextEdit } from "./edits.js";

/**
 * The edit that writes the type TypeScript inferred for an unannotated parameter (from
 * its default, say) as its annotation: what `requireAnnotations` asks for. None when
 * TypeScript sees only `any` or `unknown`: then there is nothing to write but a guess.
 */
export function annotateEdit(
  parameter: ParameterDeclaration,
  backend: Backend,
): { text: string; edit: TextEdit } | undefined {
  if (parameter.type) return undefined;
  const type = backend.typeAtLocation(parameter.name);
  if ((backend.typeFlags(type) & (TypeFlag.Any | TypeFlag.Unknown)) !== 0) return undefined;
  const text = backend.annotationText(backend.baseTypeOfLiteral(type), parameter);
  const after = parameter.questionToken ?? parameter.name;
  return {
    text,
    edit: { fileName: parameter.getSourceFile().fileName, start: after.getEnd(), length: 0, newText: `: ${text}` },
  };
}
