/**
 * `toolwright/dialects`: pure functions from the canonical JSON Schema to what each
 * provider accepts, and checks of what a target cannot take. No TypeScript dependency,
 * so the compiler runs the same functions at build time.
 *
 * @example
 * ```ts
 * import { dialects } from "toolwright/dialects";
 * const { schema, notes } = dialects["openai-strict"].toDialect(tool.parameters);
 * const problems = dialects["gemini-legacy"].check(tool.parameters); // [] when fine
 * ```
 */
export { anthropicDialect, anthropicStrictDialect } from "./anthropic.js";
export { geminiDialect } from "./gemini.js";
export { GEMINI_SCHEMA_FIELDS, geminiLegacyDialect } from "./gemini-legacy.js";
export type { McpAnnotations } from "./mcp.js";
export { mcpAnnotations, mcpDialect } from "./mcp.js";
export { isStrictResult, openAiDialect } from "./openai.js";
export { OPENAI_STRICT_LIMITS } from "./openai-limits.js";
export { openAiNonStrictDialect } from "./openai-nonstrict.js";
export { nullable, openAiStrictDialect } from "./openai-strict.js";
export { dialectOfTarget, dialects, isDialectName } from "./registry.js";
export type { DialectName, DialectNote, DialectResult, DialectSeverity, SchemaDialect } from "./types.js";
