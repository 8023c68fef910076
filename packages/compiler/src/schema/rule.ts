import type { JsonSchema } from "toolwright";
import type { Backend, TsSymbol, TsType } from "../backend/backend.js";
import type { Node, TypeNode } from "../backend/syntax.js";

/** What a rule may ask of the converter while it maps one type. */
export interface RuleContext {
  /** The compiler's answers about types (TypeScript 5 or 7, the same questions). */
  readonly backend: Backend;
  /**
   * Maps a nested type; `step` extends the path shown in diagnostics (`.city`, `[]`, `[0]`).
   * `node`, when known, is the annotation the type was written as: it carries aliases'
   * TSDoc and the source order of union members, which the checker's type has lost.
   */
  convert(type: TsType, step: string, node?: TypeNode): JsonSchema;
  /**
   * Maps an object property, with its member comment and optionality applied; undefined
   * for an optional member no JSON value fits (`kind?: undefined`), whose key must be absent.
   */
  convertProperty(property: TsSymbol): { schema: JsonSchema; optional: boolean } | undefined;
  /**
   * Records that this construct cannot be sent (by default: JSON cannot carry it; `reason`
   * says otherwise), at the parameter or at `at`; returns an empty schema so mapping goes on.
   */
  unsupported(construct: string, fix: string, detail?: { reason?: string; at?: Node }): JsonSchema;
}

/**
 * Maps one TypeScript construct (or family) to JSON Schema. Rules are tried in the order
 * of `RULES` in rules.ts; the first whose `supports` returns true converts the type.
 * `node` is the structural annotation of the type when the source has one (aliases
 * already followed), for rules that pass it on to nested types.
 */
export interface TypeRule {
  readonly name: string;
  supports(type: TsType, ctx: RuleContext): boolean;
  convert(type: TsType, ctx: RuleContext, node?: TypeNode): JsonSchema;
}
