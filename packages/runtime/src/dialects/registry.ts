import { anthropicDialect, anthropicStrictDialect } from "./anthropic.js";
import { geminiDialect } from "./gemini.js";
import { geminiLegacyDialect } from "./gemini-legacy.js";
import { mcpDialect } from "./mcp.js";
import { openAiDialect } from "./openai.js";
import { openAiNonStrictDialect } from "./openai-nonstrict.js";
import { openAiStrictDialect } from "./openai-strict.js";
import type { DialectName, SchemaDialect } from "./types.js";

/**
 * Every dialect by name. A name means the same in the compiler's `targets` option,
 * `toolwright print --dialect` and here: a provider's short name (`openai`, `anthropic`,
 * `gemini`, `mcp`) is what that provider sends by default; a suffixed name is one mode.
 */
export const dialects: Readonly<Record<DialectName, SchemaDialect>> = {
  openai: openAiDialect,
  "openai-strict": openAiStrictDialect,
  "openai-nonstrict": openAiNonStrictDialect,
  anthropic: anthropicDialect,
  "anthropic-strict": anthropicStrictDialect,
  gemini: geminiDialect,
  "gemini-legacy": geminiLegacyDialect,
  mcp: mcpDialect,
};

/** True when `name` is a dialect toolwright knows. */
export function isDialectName(name: string): name is DialectName {
  return Object.hasOwn(dialects, name);
}

/** The dialect a `targets` entry or `--dialect` value names, or `undefined` when it names none. */
export function dialectOfTarget(target: string): DialectName | undefined {
  return isDialectName(target) ? target : undefined;
}
