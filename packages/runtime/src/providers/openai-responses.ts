import type { Message, ToolResultMessage } from "../model/messages.js";
import type { ModelRequest, ModelResponse, ModelStreamEvent, ToolChoice } from "../model/model.js";
import { CallAccumulator } from "./call-accumulator.js";
import type { HttpModelOptions, StreamDecoder, WireCodec } from "./http-model.js";
import { parseResponsesBody, type ResponsesItem } from "./openai-responses-parse.js";
import { argumentsText, openAiJsonSchema, openAiToolSchema } from "./openai-tools.js";
import type { SseEvent } from "./sse.js";
import { parseData, streamErrorEvent, truncatedStream } from "./stream-error.js";

/** Options of an OpenAI Responses API model. */
export interface OpenAiResponsesOptions extends HttpModelOptions {
  readonly model: string;
  /** Up to and including `/v1`. */
  readonly baseURL: string;
  readonly apiKey?: string;
  /** Strict schemas where they fit (default true); `strict` is always sent explicitly. */
  readonly strict?: boolean;
  readonly maxTokens?: number;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * A function call's output: its text, or, when the tool returned images, the text and each
 * image as an `input_image` data URL (the Responses API takes images there; it takes no
 * audio, which stays named in the text).
 */
function functionOutput(m: ToolResultMessage): string | unknown[] {
  const images = (m.media ?? []).filter((part) => part.type === "image");
  if (images.length === 0) return m.content;
  return [
    ...(m.content ? [{ type: "input_text", text: m.content }] : []),
    ...images.map((image) => ({ type: "input_image", image_url: `data:${image.mimeType};base64,${image.data}` })),
  ];
}

function inputItems(m: Message): unknown[] {
  switch (m.role) {
    case "system":
    case "user":
      return [{ role: m.role, content: m.content }];
    case "tool":
      return [{ type: "function_call_output", call_id: m.callId, output: functionOutput(m) }];
    case "assistant": {
      const verbatim = (m.providerData as { responses?: { output?: ResponsesItem[] } } | undefined)?.responses?.output;
      if (verbatim) return verbatim;
      return [
        ...(m.content ? [{ role: "assistant", content: m.content }] : []),
        ...m.toolCalls.map((c) => ({
          type: "function_call",
          call_id: c.id,
          name: c.name,
          arguments: argumentsText(c.arguments),
        })),
      ];
    }
  }
}

function responsesChoice(choice: ToolChoice): unknown {
  return typeof choice === "string" ? choice : { type: "function", name: choice.name };
}

/** Streamed Responses events: output items, argument deltas, and `response.completed` with the whole response. */
class ResponsesDecoder implements StreamDecoder {
  private readonly calls = new CallAccumulator();
  private completed: unknown;

  push(sse: SseEvent): ModelStreamEvent[] {
    const data = parseData("openai-responses", sse.data) as Record<string, unknown>;
    const type = (data.type as string | undefined) ?? sse.event;
    const key = (itemId: unknown, index: unknown) => (typeof itemId === "string" && itemId ? itemId : `o${index}`);
    switch (type) {
      case "response.output_item.added": {
        const item = data.item as Record<string, unknown>;
        if (item?.type !== "function_call") return [];
        return this.calls.add(key(item.id, data.output_index), {
          id: typeof item.call_id === "string" ? item.call_id : undefined,
          name: String(item.name ?? ""),
          arguments: typeof item.arguments === "string" ? item.arguments : undefined,
        });
      }
      case "response.output_text.delta":
      // A refusal under structured output streams in place of the text.
      case "response.refusal.delta":
        return typeof data.delta === "string" && data.delta ? [{ type: "text-delta", delta: data.delta }] : [];
      case "response.function_call_arguments.delta":
        return this.calls.add(key(data.item_id, data.output_index), { arguments: String(data.delta ?? "") });
      case "response.completed":
      case "response.incomplete":
        this.completed = data.response;
        return [];
      case "response.failed":
        throw streamErrorEvent("openai-responses", (data.response as { error?: unknown })?.error ?? data);
      case "error":
        throw streamErrorEvent("openai-responses", data);
      default:
        return [];
    }
  }

  end(): ModelResponse {
    if (this.completed === undefined) throw truncatedStream("openai-responses", "response.completed");
    return parseResponsesBody(this.completed);
  }
}

/** The Responses wire: `POST {baseURL}/responses`, flat function tools, typed input items. */
export function openAiResponsesCodec(options: OpenAiResponsesOptions): WireCodec {
  const strictWanted = options.strict ?? true;
  return {
    provider: "openai-responses",
    request(request: ModelRequest, stream: boolean) {
      const tools = request.tools.map((t) => {
        const { parameters, strict } = openAiToolSchema(t, strictWanted);
        return {
          type: "function",
          name: t.name,
          ...(t.description ? { description: t.description } : {}),
          parameters,
          strict,
        };
      });
      const body = {
        model: options.model,
        ...(request.instructions ? { instructions: request.instructions } : {}),
        input: request.messages.flatMap(inputItems),
        ...(tools.length > 0 ? { tools } : {}),
        ...(tools.length > 0 && request.toolChoice ? { tool_choice: responsesChoice(request.toolChoice) } : {}),
        ...(tools.some((t) => t.strict) ? { parallel_tool_calls: false } : {}),
        ...(request.output
          ? { text: { format: { type: "json_schema", ...openAiJsonSchema(request.output, strictWanted) } } }
          : {}),
        ...(options.maxTokens === undefined ? {} : { max_output_tokens: options.maxTokens }),
        ...(stream ? { stream: true } : {}),
      };
      return {
        url: `${options.baseURL.replace(/\/+$/, "")}/responses`,
        headers: { ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}), ...options.headers },
        body,
      };
    },
    parse: parseResponsesBody,
    decoder: () => new ResponsesDecoder(),
  };
}
