import type { OutputMode } from "../model/model.js";

/** The OpenAI-compatible servers toolwright knows the quirks of. */
export type ChatServerKind = "openai" | "ollama" | "vllm" | "llamacpp" | "lmstudio" | "generic";

/** What a Chat Completions server accepts and how it misbehaves; every field can be overridden. */
export interface ChatQuirks {
  /**
   * How `tool_choice` may be sent: `full` (strings and the named-function object),
   * `strings` (LM Studio: a named choice is sent as "required"), `omit` (Ollama ignores it,
   * vLLM without --enable-auto-tool-choice rejects "auto").
   */
  readonly toolChoice: "full" | "strings" | "omit";
  /** Send strict-mode schemas (OpenAI only: local servers constrain nothing or reject them). */
  readonly strict: boolean;
  /**
   * `parallel_tool_calls` to send: `auto` sends false when a strict schema is present (strict
   * mode cannot be guaranteed with parallel calls) and nothing otherwise; llama.cpp needs true.
   */
  readonly parallelToolCalls: boolean | "auto" | "omit";
  /** Ask for the usage chunk with `stream_options.include_usage`. */
  readonly streamUsage: boolean;
  /** The name of the output token limit field. */
  readonly maxTokensField: "max_completion_tokens" | "max_tokens";
  /**
   * Stream turns that offer tools (default true). Set false for a server whose streamed
   * tool calls are broken (LM Studio 0.3.17-0.3.18): such turns are sent without
   * streaming and told as stream events.
   */
  readonly streamToolCalls: boolean;
  /**
   * How a typed final answer is asked for: `response_format` json_schema (`native`), or a
   * final-answer tool forced with `tool_choice` (`tool`), for a server that ignores
   * `response_format` (default `native` for every kind; every answer is checked either way).
   */
  readonly outputMode: OutputMode;
}

/** The quirks of each server kind, from the provider sheet. */
export const CHAT_QUIRKS: Readonly<Record<ChatServerKind, ChatQuirks>> = {
  openai: {
    toolChoice: "full",
    strict: true,
    parallelToolCalls: "auto",
    streamUsage: true,
    maxTokensField: "max_completion_tokens",
    streamToolCalls: true,
    outputMode: "native",
  },
  ollama: {
    toolChoice: "omit",
    strict: false,
    parallelToolCalls: "omit",
    streamUsage: true,
    maxTokensField: "max_tokens",
    streamToolCalls: true,
    outputMode: "native",
  },
  vllm: {
    toolChoice: "full",
    strict: false,
    parallelToolCalls: "omit",
    streamUsage: true,
    maxTokensField: "max_tokens",
    streamToolCalls: true,
    outputMode: "native",
  },
  llamacpp: {
    toolChoice: "full",
    strict: false,
    parallelToolCalls: true,
    streamUsage: true,
    maxTokensField: "max_tokens",
    streamToolCalls: true,
    outputMode: "native",
  },
  lmstudio: {
    toolChoice: "strings",
    strict: false,
    parallelToolCalls: "omit",
    streamUsage: true,
    maxTokensField: "max_tokens",
    streamToolCalls: true,
    outputMode: "native",
  },
  generic: {
    toolChoice: "full",
    strict: false,
    parallelToolCalls: "omit",
    streamUsage: true,
    maxTokensField: "max_tokens",
    streamToolCalls: true,
    outputMode: "native",
  },
};
