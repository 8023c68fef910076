import type { ToolSpec } from "toolwright";
import { dialectOfTarget, dialects } from "toolwright/dialects";
import type ts from "typescript";
import { TS } from "../typescript-host.js";

function jsonBlock(value: unknown): string {
  return `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;
}

/**
 * The tool as the model will see it, in Markdown: name, description, flags, and the
 * parameters' JSON Schema, canonical or, when `targets` is set, as each target's dialect
 * sends it (the same dialect functions the providers run).
 */
export function toolMarkdown(spec: ToolSpec, targets: readonly string[]): string {
  const flags = Object.entries(spec.flags)
    .filter(([, on]) => on === true)
    .map(([flag]) => `\`${flag}\``);
  const schemas = targets.flatMap((target) => {
    const dialect = dialectOfTarget(target);
    if (dialect === undefined) return [];
    return [
      `Parameters as target \`${target}\` receives them (${dialect} dialect):\n\n${jsonBlock(dialects[dialect].toDialect(spec.parameters).schema)}`,
    ];
  });
  return [
    `**toolwright tool** \`${spec.name}\``,
    spec.description === "" ? "_(no description)_" : spec.description,
    `Flags: ${flags.length > 0 ? flags.join(", ") : "none"}`,
    ...(schemas.length > 0 ? schemas : [`Parameters (JSON Schema):\n\n${jsonBlock(spec.parameters)}`]),
  ].join("\n\n");
}

/**
 * TypeScript's own quick info at a tool site (the signature of `tool`, say) with the tool
 * appended to its documentation; a quick info of its own where TypeScript has none.
 */
export function withTool(info: ts.QuickInfo | undefined, anchor: ts.Node, markdown: string): ts.QuickInfo {
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
