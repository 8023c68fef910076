import type { ToolSpec } from "toolwright";
import { dialectOfTarget, dialects } from "toolwright/dialects";

function jsonBlock(value: unknown): string {
  return `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;
}

/**
 * The tool as the model will see it, in Markdown: name, description, flags, and the
 * parameters' JSON Schema, canonical or, when `targets` is set, as each target's dialect
 * sends it (the same dialect functions the providers run). What a hover on a tool site
 * shows, in tsserver and in `toolwright lsp`.
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
