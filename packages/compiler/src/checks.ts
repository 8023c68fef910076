import { DiagnosticCode } from "./diagnostics.js";
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
