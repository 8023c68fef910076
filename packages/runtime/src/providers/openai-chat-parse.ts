import type { AssistantMessage, TokenUsage, ToolCall } from "../model/messages.js";
import type { FinishReason, ModelResponse } from "../model/model.js";
import { finishReason } from "./finish.js";
import { synthesizeCallId } from "./ids.js";
import { respondingModel } from "./responding-model.js";

/** OpenAI finish reasons (and llama.cpp's old `tool`) mapped onto ours. */
export const CHAT_FINISH: Readonly<Record<string, FinishReason>> = {
  stop: "stop",
  length: "length",
  tool_calls: "tool_calls",
  function_call: "tool_calls",
  tool: "tool_calls",
  content_filter: "content_filter",
};

/** `usage` of a completion (or the last stream chunk) as {@link TokenUsage}. */
export function chatUsage(usage: unknown): TokenUsage {
  const u = (usage ?? {}) as {
    prompt_tokens?: number;
    completion_tokens?: number;
    prompt_tokens_details?: { cached_tokens?: number } | null;
  };
  return {
    inputTokens: u.prompt_tokens ?? 0,
    outputTokens: u.completion_tokens ?? 0,
    cachedInputTokens: u.prompt_tokens_details?.cached_tokens ?? 0,
  };
}

/** Reads a non-streamed completion; ids are made up when the server sent none, arguments kept as received. */
export function parseChatCompletion(body: unknown): ModelResponse {
  const b = body as {
    choices?: {
      finish_reason?: string;
      message?: { content?: string | null; refusal?: string | null; tool_calls?: unknown[] };
    }[];
    usage?: unknown;
    model?: unknown;
  };
  const choice = b.choices?.[0];
  const raw = (choice?.message?.tool_calls ?? []) as {
    id?: string;
    function?: { name?: string; arguments?: string | Record<string, unknown> | null };
  }[];
  const toolCalls: ToolCall[] = raw
    .filter((c) => c.function?.name)
    .map((c) => ({
      id: c.id || synthesizeCallId(),
      name: c.function?.name as string,
      arguments: c.function?.arguments ?? null,
    }));
  // A refusal under structured output comes instead of the content: the text the model gave.
  const content = choice?.message?.content ?? choice?.message?.refusal ?? "";
  const message: AssistantMessage = { role: "assistant", content, toolCalls };
  return {
    message,
    usage: chatUsage(b.usage),
    finishReason: finishReason(choice?.finish_reason, toolCalls.length > 0, CHAT_FINISH),
    ...respondingModel(b.model),
  };
}
