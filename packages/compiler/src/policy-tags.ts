import type { Capability, JsonSchema, ToolSpec } from "toolwright";
import type { Expression, Node, Syntax } from "./backend/syntax.js";
import type { Problem } from "./derive-parameters.js";
import { DiagnosticCode } from "./diagnostics.js";
import type { DocBlock } from "./docs.js";
import { literalProperty } from "./literal-value.js";

// Typed as a record over the runtime's union, so a capability added there fails this build until it is listed here.
const KNOWN: Readonly<Record<Capability, true>> = { private_data: true, untrusted_content: true, egress: true };
const KNOWN_LIST = Object.keys(KNOWN).join(", ");

/** Where the policy declarations of one tool come from, for the positions of their diagnostics. */
export interface PolicySources {
  readonly doc: DocBlock;
  /** The function's declaration: TSDoc problems are reported there. */
  readonly declaration: Node;
  /** The `tool()` options literal: option problems are reported there. */
  readonly options: Expression | undefined;
  readonly parameters: JsonSchema;
  readonly toolName: string;
  readonly syntax: Syntax;
}

/**
 * Reads what a tool declares for the run policy: `@capability private_data egress` (several
 * names per tag, several tags) and `@egress <parameter>`, or the `capabilities` and `egress`
 * options, which win. An unknown capability or a parameter the tool does not have is a problem.
 */
export function policyDeclarations(
  from: PolicySources,
  problems: Problem[],
): Pick<ToolSpec, "capabilities" | "egress"> {
  const capabilities = readCapabilities(from, problems);
  const egress = readEgress(from, problems);
  return {
    ...(capabilities.length ? { capabilities } : {}),
    ...(egress === undefined ? {} : { egress }),
  };
}

function readCapabilities(from: PolicySources, problems: Problem[]): Capability[] {
  const option = literalProperty(from.options, "capabilities", from.syntax);
  const fromOption = option.ok && Array.isArray(option.value);
  const names = fromOption
    ? (option.value as unknown[]).map(String)
    : from.doc.tags.filter((t) => t.tag === "capability").flatMap((t) => t.value.split(/[\s,]+/).filter(Boolean));
  const node = fromOption ? (from.options as Expression) : from.declaration;
  const found: Capability[] = [];
  for (const name of names) {
    if (!Object.hasOwn(KNOWN, name)) {
      problems.push({
        node,
        code: DiagnosticCode.badPolicyTag,
        message: `tool "${from.toolName}" declares the unknown capability "${name}". Fix: use one of ${KNOWN_LIST} (space-separated after @capability).`,
      });
    } else if (!found.includes(name as Capability)) found.push(name as Capability);
  }
  return found;
}

function readEgress(from: PolicySources, problems: Problem[]): string | undefined {
  const option = literalProperty(from.options, "egress", from.syntax);
  const fromOption = option.ok && typeof option.value === "string";
  const tag = from.doc.tags.find((t) => t.tag === "egress");
  const name = fromOption ? (option.value as string) : tag?.value.split(/\s+/)[0];
  if (name === undefined) return undefined;
  const properties = Object.keys((from.parameters.properties ?? {}) as Record<string, unknown>);
  if (properties.includes(name)) return name;
  const what = name === "" ? "names no parameter" : `names "${name}", which is not one of its parameters`;
  problems.push({
    node: fromOption ? (from.options as Expression) : from.declaration,
    code: DiagnosticCode.badPolicyTag,
    message: `tool "${from.toolName}" @egress ${what} (it has: ${properties.join(", ") || "none"}). Fix: write @egress followed by the parameter holding the URL, e.g. @egress url.`,
  });
  return undefined;
}
