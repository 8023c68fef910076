import { dialects, isDialectName } from "toolwright/dialects";
import { DiagnosticCode } from "./diagnostics.js";
import type { SpecCheck } from "./options.js";

/**
 * Rule 7: the `targets` option. Runs the same dialect functions the providers use at
 * run time and reports, at the tool site, each thing a target cannot take. Warnings
 * (rules the provider has not confirmed, `openai` falling back to non-strict) are not
 * build errors.
 */
export function targetChecks(targets: readonly string[]): SpecCheck[] {
  return targets.map((target): SpecCheck => {
    return (spec, site, report) => {
      if (!isDialectName(target)) {
        report(
          site,
          DiagnosticCode.targetRejected,
          `unknown target "${target}" in the toolwright plugin options. Fix: use one of ${Object.keys(dialects).join(", ")}.`,
        );
        return;
      }
      for (const note of dialects[target].check(spec.parameters)) {
        if (note.severity !== "error") continue;
        const where = note.path === "" ? "the parameters object" : `parameters${note.path}`;
        report(
          site,
          DiagnosticCode.targetRejected,
          `tool "${spec.name}" cannot be sent to target "${target}": at ${where}, ${note.message}. ` +
            `Fix: change that parameter's type, or remove "${target}" from targets in the toolwright plugin options.`,
        );
      }
    };
  });
}
