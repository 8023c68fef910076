import type { JsonSchema, ToolFlags } from "../tools/spec.js";
import type { AssistantMessage, Message, TokenUsage, ToolCall } from "./messages.js";

/** A tool as it is offered to a model: the canonical schema; the provider applies its dialect. */
export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonSchema;
  readonly flags: ToolFlags;
}

/** How the model may use the tools this turn. */
export type ToolChoice = "auto" | "required" | "none" | { readonly name: string };

/**
 * The typed final answer a request asks for, as each API's structured output field takes it
 * (OpenAI's `response_format` and `text.format`, Anthropic's `output_config.format`, Gemini's
 * `responseJsonSchema`). The answer comes back as the message's text: its JSON.
 */
export interface OutputFormat {
  /** What the API calls the format: `^[a-zA-Z0-9_-]{1,64}$`. */
  readonly name: string;
  readonly description?: string;
  /**
   * Canonical JSON Schema whose root is one object (`type: "object"`), as every structured
   * output API wants; the runtime wraps any other answer type in `{ answer }`. The provider
   * applies its dialect, as it does to tool parameters.
   */
  readonly schema: JsonSchema;
}

/**
 * How a model gives a typed final answer: through its API's structured output field
 * (`native`), or by calling a final-answer tool the run adds and forces with `tool_choice`
 * (`tool`: for servers and models that ignore or refuse the structured output field).
 */
export type OutputMode = "native" | "tool";

/** One turn's request: everything a provider needs, nothing loop-specific. */
export interface ModelRequest {
  readonly instructions?: string;
  readonly messages: readonly Message[];
  /** Sorted by name, so the provider's prompt cache stays warm. */
  readonly tools: readonly ToolDefinition[];
  readonly toolChoice?: ToolChoice;
  /** The schema of the final answer, when the run wants a typed one and the model's mode is `native`. */
  readonly output?: OutputFormat;
  readonly signal?: AbortSignal;
}

/** Why the model stopped, normalised. Decide "tool turn" from `toolCalls`, never from this. */
export type FinishReason = "stop" | "tool_calls" | "length" | "content_filter" | "error" | "other";

/** One complete model turn. */
export interface ModelResponse {
  readonly message: AssistantMessage;
  readonly usage: TokenUsage;
  readonly finishReason: FinishReason;
  /**
   * The model that answered, as the response names it (often a dated snapshot of the one
   * requested: `gpt-5-mini-2025-08-07`); absent when the provider's answer names none.
   */
  readonly model?: string;
}

/** What a streaming model yields; the last event is always `finish` with the whole turn. */
export type ModelStreamEvent =
  | { readonly type: "text-delta"; readonly delta: string }
  | { readonly type: "tool-call-start"; readonly index: number; readonly id: string; readonly name: string }
  | { readonly type: "tool-call-delta"; readonly index: number; readonly delta: string }
  | { readonly type: "tool-call-end"; readonly index: number; readonly call: ToolCall }
  | {
      /**
       * The turn failed part-way (a cut stream, an error event after HTTP 200) and is being
       * sent again from the start: discard the deltas seen since the turn (or the last
       * `retry`) began. Only the `finish` event's response belongs in the transcript.
       */
      readonly type: "retry";
      readonly attempt: number;
      readonly error: Error;
    }
  | { readonly type: "finish"; readonly response: ModelResponse };

/**
 * The only thing the loop knows about a provider. Providers implement it over HTTP;
 * `toolwright/testing` has a scripted one.
 */
export interface Model {
  /** `provider:model`, e.g. `openai:gpt-5-mini`; used for prices and traces. */
  readonly id: string;
  /** How it gives a typed final answer (default `native`: it reads `request.output`). */
  readonly outputMode?: OutputMode;
  /**
   * The mode for one run's answer, where its schema or its tools decide it (Anthropic: a
   * schema its structured outputs cannot take; Gemini before 3: a JSON answer beside
   * function declarations, which the API refuses): default `outputMode`.
   */
  outputModeFor?(format: OutputFormat, tools: readonly ToolDefinition[]): OutputMode;
  generate(request: ModelRequest): Promise<ModelResponse>;
  /** Streams one turn; a model without it is streamed as one `finish` event. */
  stream?(request: ModelRequest): AsyncIterable<ModelStreamEvent>;
}
