import type { ToolSpec } from "toolwright";
import type { Node } from "./backend/syntax.js";
import { DiagnosticCode, type Finding, finding } from "./diagnostics.js";
import type { SpecCheck } from "./options.js";

const NAME = /^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/;

/** Rule 7: names every provider accepts. */
export const nameCheck: SpecCheck = (spec, site, report) => {
  if (NAME.test(spec.name)) return;
  report(
    site,
    DiagnosticCode.badName,
    `tool name "${spec.name}" is not allowed: a name must match ^[a-zA-Z][a-zA-Z0-9_-]{0,63}$ (a letter, then up to 63 letters, digits, "_" or "-"). Fix: rename the function or pass { name: "..." } to tool().`,
  );
};

/** Rule 7: the model picks tools by their description, so an empty or thin one is an error. */
export function descriptionCheck(minLength: number): SpecCheck {
  return (spec, site, report) => {
    const length = spec.description.trim().length;
    if (length >= minLength) return;
    const what = length === 0 ? "has no description" : `has a description of ${length} characters`;
    report(
      site,
      DiagnosticCode.thinDescription,
      `tool "${spec.name}" ${what} (the minimum is ${minLength}). Fix: write a TSDoc summary above the function saying what it does and when to use it, or pass { description: "..." } to tool().`,
    );
  };
}

/**
 * Under `requireEffectFlags`, a warning for a tool that declares neither `@readOnly` nor
 * `@destructive`: the agent's `approve` tier treats it as having side effects, and a
 * reader cannot tell whether that was meant. A warning: the site keeps its spec and the
 * JavaScript is written, though `tsc` exits with status 2 as for any reported diagnostic.
 */
export function effectFlagWarning(spec: ToolSpec, site: Node): Finding | undefined {
  if (spec.flags.readOnly !== undefined || spec.flags.destructive !== undefined) return undefined;
  return finding(
    site,
    DiagnosticCode.missingEffectFlag,
    `tool "${spec.name}" says neither @readOnly nor @destructive, so an agent with approve: "side-effects" asks a person before every call and approve: "destructive" never does. Fix: add @readOnly (it only reads) or @destructive (it deletes or overwrites) to its TSDoc, or pass { readOnly: true } / { destructive: false } to tool().`,
    "warning",
  );
}
