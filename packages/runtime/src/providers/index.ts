/**
 * `toolwright/providers`: model adapters over undici for OpenAI Chat Completions (and the
 * OpenAI-compatible servers), the OpenAI Responses API, Anthropic Messages and Gemini,
 * with retries, timeouts and typed errors.
 *
 * @example
 * ```ts
 * import { resolveModel } from "toolwright/providers";
 * const model = resolveModel("anthropic:claude-sonnet-4-5", { retry: { maxRetries: 4 } });
 * ```
 */
export type { AnthropicOptions } from "./anthropic.js";
export { anthropicCodec } from "./anthropic.js";
export { ModelConfigError, ProviderError, ProviderStreamError, ProviderTimeoutError } from "./errors.js";
export type { GeminiOptions } from "./gemini.js";
export { geminiCodec } from "./gemini.js";
export type { WireRequest } from "./http.js";
export type { HttpModelOptions, StreamDecoder, WireCodec } from "./http-model.js";
export { HttpModel } from "./http-model.js";
export type { OpenAiChatOptions } from "./openai-chat.js";
export { openAiChatCodec } from "./openai-chat.js";
export type { ChatQuirks, ChatServerKind } from "./openai-chat-quirks.js";
export { CHAT_QUIRKS } from "./openai-chat-quirks.js";
export type { OpenAiResponsesOptions } from "./openai-responses.js";
export { openAiResponsesCodec } from "./openai-responses.js";
export type { ResolveModelOptions } from "./resolve.js";
export { resolveModel } from "./resolve.js";
export type { RetryInfo, RetryOptions } from "./retry.js";
export { isRetryableStatus, retryDelayMs, serverDelayMs } from "./retry.js";
export type { SseEvent } from "./sse.js";
