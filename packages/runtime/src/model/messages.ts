/**
 * The provider-neutral transcript. Providers translate it to and from their wire
 * formats; the loop only ever reads and appends these shapes.
 */

/** A tool call as the model proposed it, before any parsing or validation. */
export interface ToolCall {
  /** The provider's call id, or one toolwright made up when the server sent none. */
  readonly id: string;
  readonly name: string;
  /** The arguments exactly as they arrived: a JSON string (most APIs) or an object (Anthropic, Gemini). */
  readonly arguments: string | Readonly<Record<string, unknown>> | null;
  /** Opaque data the provider must get back verbatim (e.g. Gemini's thought signature). */
  readonly providerData?: unknown;
}

/** What became of one tool call, as the model is told. */
export type OutcomeKind = "ok" | "invalid_arguments" | "unknown_tool" | "tool_error" | "retry" | "timeout" | "rejected";

export interface SystemMessage {
  readonly role: "system";
  readonly content: string;
}

export interface UserMessage {
  readonly role: "user";
  readonly content: string;
}

export interface AssistantMessage {
  readonly role: "assistant";
  readonly content: string;
  readonly toolCalls: readonly ToolCall[];
  /** Opaque provider data to replay with this turn (thinking blocks, reasoning items). */
  readonly providerData?: unknown;
}

/**
 * An image or a sound a tool returned, base64-encoded, as MCP writes them:
 * `{ type: "image", data, mimeType: "image/png" }`. Return one (or an array of them and
 * strings) from a tool, and providers that take images in tool results get the image itself.
 */
export interface MediaPart {
  readonly type: "image" | "audio";
  /** The bytes, base64-encoded. */
  readonly data: string;
  readonly mimeType: string;
}

/** The result of one tool call; every call in an assistant turn gets exactly one. */
export interface ToolResultMessage {
  readonly role: "tool";
  readonly callId: string;
  readonly toolName: string;
  /** What the model reads: the serialized result, or the feedback for a failed call. */
  readonly content: string;
  readonly outcome: OutcomeKind;
  /** True for every outcome but `ok`. */
  readonly isError: boolean;
  /** Images and sounds the tool returned, sent as such to providers that take them (`content` names each). */
  readonly media?: readonly MediaPart[];
}

export type Message = SystemMessage | UserMessage | AssistantMessage | ToolResultMessage;

/** Token counts of one model response, normalised across providers. */
export interface TokenUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Input tokens read from the provider's prompt cache (already counted in `inputTokens`). */
  readonly cachedInputTokens: number;
}
