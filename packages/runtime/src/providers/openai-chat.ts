import type { Message } from "../model/messages.js";
import type { ModelRequest, ToolChoice } from "../model/model.js";
import type { HttpModelOptions, WireCodec } from "./http-model.js";
import { parseChatCompletion } from "./openai-chat-parse.js";
import { CHAT_QUIRKS, type ChatQuirks, type ChatServerKind } from "./openai-chat-quirks.js";
import { OpenAiChatDecoder } from "./openai-chat-stream.js";
import { argumentsText, openAiJsonSchema, openAiToolSchema } from "./openai-tools.js";

/** Options of an OpenAI Chat Completions model (OpenAI itself or a compatible server). */
export interface OpenAiChatOptions extends HttpModelOptions {
  readonly model: string;
  /** Up to and including `/v1`, e.g. `http://127.0.0.1:11434/v1`. */
  readonly baseURL: string;
  /** Sent as `Authorization: Bearer …`; local servers may need none. */
  readonly apiKey?: string;
  /** Which server it is, for its quirks (default `openai`). */
  readonly kind?: ChatServerKind;
  /** Overrides of single quirks. */
  readonly quirks?: Partial<ChatQuirks>;
  readonly maxTokens?: number;
  readonly headers?: Readonly<Record<string, string>>;
}

function chatMessage(m: Message): Record<string, unknown> {
  switch (m.role) {
    case "system":
    case "user":
      return { role: m.role, content: m.content };
    case "tool":
      // Chat Completions takes only text in a tool message: images and sounds stay named in it.
      return { role: "tool", tool_call_id: m.callId, content: m.content };
    case "assistant":
      return {
        role: "assistant",
        // null only beside tool calls: an assistant message needs one or the other.
        content: m.content.length > 0 || m.toolCalls.length === 0 ? m.content : null,
        ...(m.toolCalls.length > 0
          ? {
              tool_calls: m.toolCalls.map((c) => ({
                id: c.id,
                type: "function",
                function: { name: c.name, arguments: argumentsText(c.arguments) },
              })),
            }
          : {}),
      };
  }
}

function toolChoice(choice: ToolChoice, mode: ChatQuirks["toolChoice"]): unknown {
  if (typeof choice === "string") return choice;
  return mode === "full" ? { type: "function", function: { name: choice.name } } : "required";
}

/**
 * The Chat Completions wire: `POST {baseURL}/chat/completions`, streamed as
 * `chat.completion.chunk` events ending in `[DONE]`.
 */
export function openAiChatCodec(options: OpenAiChatOptions): WireCodec {
  const kind = options.kind ?? "openai";
  const quirks: ChatQuirks = { ...CHAT_QUIRKS[kind], ...options.quirks };
  const provider = kind === "openai" ? "openai" : `openai-compatible (${kind})`;
  return {
    provider,
    outputMode: quirks.outputMode,
    request(request: ModelRequest, stream: boolean) {
      const tools = request.tools.map((t) => {
        const { parameters, strict } = openAiToolSchema(t, quirks.strict);
        return {
          type: "function",
          function: {
            name: t.name,
            ...(t.description ? { description: t.description } : {}),
            parameters,
            ...(quirks.strict ? { strict } : {}),
          },
        };
      });
      const anyStrict = tools.some((t) => t.function.strict === true);
      const parallel = quirks.parallelToolCalls === "auto" ? (anyStrict ? false : undefined) : quirks.parallelToolCalls;
      const messages = [
        ...(request.instructions ? [{ role: "system", content: request.instructions }] : []),
        ...request.messages.map(chatMessage),
      ];
      const body = {
        model: options.model,
        messages,
        ...(tools.length > 0 ? { tools } : {}),
        ...(tools.length > 0 && request.toolChoice && quirks.toolChoice !== "omit"
          ? { tool_choice: toolChoice(request.toolChoice, quirks.toolChoice) }
          : {}),
        ...(tools.length > 0 && typeof parallel === "boolean" ? { parallel_tool_calls: parallel } : {}),
        ...(request.output
          ? { response_format: { type: "json_schema", json_schema: openAiJsonSchema(request.output, quirks.strict) } }
          : {}),
        ...(options.maxTokens === undefined ? {} : { [quirks.maxTokensField]: options.maxTokens }),
        ...(stream ? { stream: true, ...(quirks.streamUsage ? { stream_options: { include_usage: true } } : {}) } : {}),
      };
      return {
        url: `${options.baseURL.replace(/\/+$/, "")}/chat/completions`,
        headers: { ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}), ...options.headers },
        body,
      };
    },
    parse: parseChatCompletion,
    decoder: () => new OpenAiChatDecoder(provider),
    streamable: (request) => quirks.streamToolCalls || request.tools.length === 0,
  };
}
