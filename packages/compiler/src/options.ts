import type { ToolSpec } from "toolwright";
import type { Node } from "./backend/syntax.js";

/** Receives the diagnostics a {@link SpecCheck} finds. */
export type ReportFn = (node: Node, code: number, message: string) => void;

/**
 * A build-time check run on every derived spec (name rules, description length,
 * and later the target dialects). It reports through `report`; it never throws.
 */
export type SpecCheck = (spec: ToolSpec, site: Node, report: ReportFn) => void;

/** Options of the `@toolwright/compiler/transform` entry in `compilerOptions.plugins`. */
export interface CompilerOptions {
  /** Provider dialects the schemas must be accepted by, e.g. `["openai", "anthropic"]` (checked by target checks). */
  readonly targets?: readonly string[];
  /** Descriptions shorter than this many characters are errors (default 10; 1 only rejects empty ones). */
  readonly minDescriptionLength?: number;
  /** When true, a parameter without a written type annotation is an error even if TypeScript can infer it (default false). */
  readonly requireAnnotations?: boolean;
  /** Extra checks to run on every spec, after the built-in ones. */
  readonly checks?: readonly SpecCheck[];
  /**
   * When true, a tool that is neither `@readOnly` nor `@destructive` gets a warning (TW990010):
   * the agent's `approve` tier can only judge tools by the flags they declare (default false).
   */
  readonly requireEffectFlags?: boolean;
}

/** {@link CompilerOptions} with every default filled in. */
export interface ResolvedOptions {
  readonly targets: readonly string[];
  readonly minDescriptionLength: number;
  readonly requireAnnotations: boolean;
  readonly checks: readonly SpecCheck[];
  readonly requireEffectFlags: boolean;
}

/** Fills in defaults and coerces values that came from JSON (tsconfig). */
export function resolveOptions(options: CompilerOptions = {}): ResolvedOptions {
  return {
    targets: Array.isArray(options.targets) ? options.targets.map(String) : [],
    minDescriptionLength:
      typeof options.minDescriptionLength === "number" && options.minDescriptionLength >= 1
        ? options.minDescriptionLength
        : 10,
    requireAnnotations: options.requireAnnotations === true,
    checks: options.checks ?? [],
    requireEffectFlags: options.requireEffectFlags === true,
  };
}

/**
 * The options of the `@toolwright/compiler/transform` entry in a tsconfig's
 * `compilerOptions.plugins`, so every build path (and the editor) reads the same settings.
 */
export function transformEntryOptions(options: { readonly [option: string]: unknown }): CompilerOptions {
  const entries = Array.isArray(options.plugins) ? (options.plugins as readonly unknown[]) : [];
  const entry = entries.find(
    (p): p is Record<string, unknown> =>
      typeof p === "object" &&
      p !== null &&
      typeof (p as { transform?: unknown }).transform === "string" &&
      (p as { transform: string }).transform.startsWith("@toolwright/compiler"),
  );
  if (!entry) return {};
  const { transform: _transform, ...rest } = entry;
  return rest as CompilerOptions;
}
