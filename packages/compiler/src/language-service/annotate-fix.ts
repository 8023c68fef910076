import type ts from "typescript";
import { TS } from "../typescript-host.js";

/**
 * The edit that writes the type TypeScript inferred for an unannotated parameter (from
 * its default, say) as its annotation: what `requireAnnotations` asks for. None when
 * TypeScript sees only `any` or `unknown`: then there is nothing to write but a guess.
 */
export function annotateEdit(
  parameter: ts.ParameterDeclaration,
  checker: ts.TypeChecker,
): { text: string; change: ts.FileTextChanges } | undefined {
  if (parameter.type) return undefined;
  const type = checker.getTypeAtLocation(parameter.name);
  if ((type.flags & (TS.TypeFlags.Any | TS.TypeFlags.Unknown)) !== 0) return undefined;
  const text = checker.typeToString(checker.getBaseTypeOfLiteralType(type), parameter, TS.TypeFormatFlags.NoTruncation);
  const after = parameter.questionToken ?? parameter.name;
  return {
    text,
    change: {
      fileName: parameter.getSourceFile().fileName,
      textChanges: [{ span: { start: after.getEnd(), length: 0 }, newText: `: ${text}` }],
    },
  };
}
