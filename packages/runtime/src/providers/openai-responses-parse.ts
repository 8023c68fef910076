import type { ToolCall } from "../model/messages.js";
import type { FinishReason, ModelResponse } from "../model/model.js";
import { synthesizeCallId } from "./ids.js";
import { respondingModel } from "./responding-model.js";

/** A Responses output item, kept as sent so the next turn can echo it (reasoning items included). */
export type ResponsesItem = Readonly<Record<string, unknown>> & { readonly type: string };

interface ResponseBody {
  status?: string;
  model?: unknown;
  output?: ResponsesItem[];
  incomplete_details?: { reason?: string } | null;
  usage?: {
    input_tokens?: number;
    output_tokens?: number;
    input_tokens_details?: { cached_tokens?: number } | null;
  } | null;
}

/**
 * Reads a `response` object: output_text parts (a `refusal` part, under structured output,
 * read as the text the model gave), function_call items (call_id as the id), usage, status.
 */
export function parseResponsesBody(body: unknown): ModelResponse {
  const b = body as ResponseBody;
  const output = b.output ?? [];
  const toolCalls: ToolCall[] = output
    .filter((item) => item.type === "function_call")
    .map((item) => ({
      id: typeof item.call_id === "string" && item.call_id ? item.call_id : synthesizeCallId(),
      name: String(item.name),
      arguments: typeof item.arguments === "string" ? item.arguments : null,
    }));
  const text = output
    .filter((item) => item.type === "message")
    .flatMap((item) =>
      Array.isArray(item.content) ? (item.content as { type?: string; text?: string; refusal?: string }[]) : [],
    )
    .map((part) => (part.type === "output_text" ? part.text : part.type === "refusal" ? part.refusal : undefined) ?? "")
    .join("");
  const reason = b.incomplete_details?.reason;
  const status: FinishReason =
    b.status === "incomplete"
      ? reason === "content_filter"
        ? "content_filter"
        : "length"
      : b.status === "failed"
        ? "error"
        : "stop";
  return {
    message: { role: "assistant", content: text, toolCalls, providerData: { responses: { output } } },
    usage: {
      inputTokens: b.usage?.input_tokens ?? 0,
      outputTokens: b.usage?.output_tokens ?? 0,
      cachedInputTokens: b.usage?.input_tokens_details?.cached_tokens ?? 0,
    },
    finishReason: toolCalls.length > 0 && status === "stop" ? "tool_calls" : status,
    ...respondingModel(b.model),
  };
}
