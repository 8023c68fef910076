import type { TokenUsage, ToolCall } from "../model/messages.js";
import type { FinishReason, ModelResponse } from "../model/model.js";
import { parsedArguments } from "../validation/parsed-arguments.js";
import { finishReason } from "./finish.js";
import { respondingModel } from "./responding-model.js";

/** A content block as Anthropic sends and wants back; thinking blocks are replayed verbatim. */
export type AnthropicBlock = Readonly<Record<string, unknown>> & { readonly type: string };

/** Anthropic stop reasons mapped onto ours. */
export const ANTHROPIC_FINISH: Readonly<Record<string, FinishReason>> = {
  end_turn: "stop",
  stop_sequence: "stop",
  tool_use: "tool_calls",
  max_tokens: "length",
  model_context_window_exceeded: "length",
  refusal: "content_filter",
};

/** Anthropic usage as {@link TokenUsage}: total input counts cache writes and reads; cached = reads. */
export function anthropicUsage(u: Record<string, unknown> | undefined): TokenUsage {
  const n = (k: string) => (typeof u?.[k] === "number" ? (u[k] as number) : 0);
  const cached = n("cache_read_input_tokens");
  return {
    inputTokens: n("input_tokens") + n("cache_creation_input_tokens") + cached,
    outputTokens: n("output_tokens"),
    cachedInputTokens: cached,
  };
}

/** Reads a Messages response: text, tool_use blocks (input objects kept as received), thinking kept for replay. */
export function parseAnthropicMessage(body: unknown): ModelResponse {
  const b = body as {
    content?: AnthropicBlock[];
    stop_reason?: string;
    usage?: Record<string, unknown>;
    model?: unknown;
  };
  const content = b.content ?? [];
  const toolCalls: ToolCall[] = content
    .filter((c) => c.type === "tool_use")
    .map((c) => ({
      id: String(c.id),
      name: String(c.name),
      arguments: parsedArguments((c.input ?? {}) as Record<string, unknown>),
    }));
  const text = content
    .filter((c) => c.type === "text")
    .map((c) => String(c.text))
    .join("");
  return {
    message: { role: "assistant", content: text, toolCalls, providerData: { anthropic: { content } } },
    usage: anthropicUsage(b.usage),
    finishReason: finishReason(b.stop_reason, toolCalls.length > 0, ANTHROPIC_FINISH),
    ...respondingModel(b.model),
  };
}
