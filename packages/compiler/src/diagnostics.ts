import type { Node, SourceFile } from "./backend/syntax.js";

/**
 * Stable diagnostic codes of the toolwright compiler. They print as `error TS9900xx`
 * and every message starts with `TW9900xx` so users can search for them.
 */
export const DiagnosticCode = {
  /** A type JSON cannot carry (function, symbol, bigint, Map, Set, class instance, type parameter, ...). */
  unsupportedType: 990001,
  /** A parameter has no type annotation (or one TypeScript can only see as `any`). */
  missingAnnotation: 990002,
  /** The tool name breaks `^[a-zA-Z][a-zA-Z0-9_-]{0,63}$`. */
  badName: 990003,
  /** Two tools in one file have the same name. */
  duplicateName: 990004,
  /** The description is empty or shorter than `minDescriptionLength`. */
  thinDescription: 990005,
  /** The tool site itself cannot be derived (not a function, overloads, rest parameters, no name). */
  badSite: 990006,
  /** A configured target dialect cannot accept the schema (reported by target checks). */
  targetRejected: 990007,
  /** toolwright itself failed while mapping a construct (a bug to report); the site gets no spec instead of a crash. */
  internalError: 990008,
  /** A policy tag names something unknown: a capability (`@capability`) or a URL parameter (`@egress`). */
  badPolicyTag: 990009,
  /** A warning under `requireEffectFlags`: the tool says neither `@readOnly` nor `@destructive`. */
  missingEffectFlag: 990010,
  /**
   * A TSDoc constraint no validator would enforce: a `@format` nothing checks (`idn-email`),
   * on a type it never applies to, a `Date` with a format other than `date-time` or `date`,
   * a `@pattern` that is no regular expression.
   */
  uncheckedConstraint: 990011,
  /**
   * Editor only (the language-service plugin), a suggestion rather than an error: the model
   * sees this parameter with no description. Its quick fix adds a `@param` stub.
   */
  undocumentedParameter: 990100,
} as const;

/** One of {@link DiagnosticCode}'s values. */
export type DiagnosticCodeValue = (typeof DiagnosticCode)[keyof typeof DiagnosticCode];

/** How bad a diagnostic is (TypeScript's categories, without its enum numbers). */
export type Severity = "error" | "warning" | "suggestion";

/**
 * A toolwright diagnostic, whichever compiler found it: where it is, its code and its text.
 * Each build path turns it into its compiler's diagnostic (`toTsDiagnostic` for TypeScript 5)
 * or prints it.
 */
export interface Finding {
  readonly file: SourceFile;
  readonly start: number;
  readonly length: number;
  readonly code: number;
  /** The message, starting with `TW<code>: `. */
  readonly messageText: string;
  readonly category: Severity;
}

/**
 * A diagnostic at `node`, prefixed with `TW<code>` so it reads as toolwright's in any tool
 * that prints TypeScript diagnostics.
 */
export function finding(node: Node, code: number, message: string, category: Severity = "error"): Finding {
  const file = node.getSourceFile();
  const start = node.getStart(file);
  return {
    file,
    start,
    length: Math.max(node.getEnd() - start, 1),
    messageText: `TW${code}: ${message}`,
    category,
    code,
  };
}
