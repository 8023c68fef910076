import type ts from "typescript";
import type { Node } from "../backend/syntax.js";
import { TS } from "../typescript-host.js";

/**
 * TypeScript's own quick info at a tool site (the signature of `tool`, say) with the tool's
 * Markdown (`toolMarkdown`) appended to its documentation; a quick info of its own where
 * TypeScript has none.
 */
export function withTool(info: ts.QuickInfo | undefined, anchor: Node, markdown: string): ts.QuickInfo {
  const part: ts.SymbolDisplayPart = { kind: "text", text: markdown };
  if (!info) {
    return {
      kind: TS.ScriptElementKind.unknown,
      kindModifiers: "",
      textSpan: { start: anchor.getStart(), length: anchor.getEnd() - anchor.getStart() },
      documentation: [part],
    };
  }
  const documentation = info.documentation ?? [];
  const separator: ts.SymbolDisplayPart[] = documentation.length > 0 ? [{ kind: "lineBreak", text: "\n\n" }] : [];
  return { ...info, documentation: [...documentation, ...separator, part] };
}
