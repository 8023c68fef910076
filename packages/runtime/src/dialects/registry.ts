import { anthropicDialect, anthropicStrictDialect } from "./anthropic.js";
import { geminiDialect } from "./gemini.js";
import { geminiLegacyDialect } from "./gemini-legacy.js";
import { mcpDialect } from "./mcp.js";
import { openAiDialect } from "./openai.js";
import { openAiStrictDialect } from "./openai-strict.js";
import type { DialectName, SchemaDialect } from "./types.js";

/** Every dialect by name: what the compiler's `targets` option and the providers look up. */
export const dialects: Readonly<Record<DialectName, SchemaDialect>> = {
  "openai-strict": openAiStrictDialect,
  openai: openAiDialect,
  "anthropic-strict": anthropicStrictDialect,
  anthropic: anthropicDialect,
  gemini: geminiDialect,
  "gemini-legacy": geminiLegacyDialect,
  mcp: mcpDialect,
};

/** True when `name` is a dialect toolwright knows. */
export function isDialectName(name: string): name is DialectName {
  return Object.hasOwn(dialects, name);
}

/**
 * Short provider names and the dialect each provider sends by default (OpenAI: strict
 * mode; the adapter falls back to non-strict per tool, but then arguments are not
 * constrained). Used for `targets: ["openai", ...]` and `toolwright print --dialect`.
 */
export const providerDialects: Readonly<Record<string, DialectName>> = {
  openai: "openai-strict",
  anthropic: "anthropic",
  gemini: "gemini",
  mcp: "mcp",
};

/** The dialect a target names: a provider short name or an exact dialect name; `undefined` when unknown. */
export function dialectOfTarget(target: string): DialectName | undefined {
  return providerDialects[target] ?? (isDialectName(target) ? target : undefined);
}
