import { geminiDialect } from "../dialects/gemini.js";
import { geminiLegacyDialect } from "../dialects/gemini-legacy.js";
import type { MediaPart, Message, ToolCall, ToolResultMessage } from "../model/messages.js";
import type { ModelRequest, ModelResponse, ModelStreamEvent, OutputMode, ToolChoice } from "../model/model.js";
import { type GeminiCallData, type GeminiPart, GeminiTurn } from "./gemini-turn.js";
import type { HttpModelOptions, StreamDecoder, WireCodec } from "./http-model.js";
import type { SseEvent } from "./sse.js";
import { parseData, truncatedStream } from "./stream-error.js";

/** Options of a Gemini model. */
export interface GeminiOptions extends HttpModelOptions {
  readonly model: string;
  /** Without the version, e.g. `http://127.0.0.1:8080`. */
  readonly baseURL: string;
  readonly apiKey: string;
  /** Which schema field to send: `parametersJsonSchema` (default, JSON Schema) or the legacy OpenAPI-subset `parameters`. */
  readonly schemaField?: "parametersJsonSchema" | "parameters";
  readonly maxTokens?: number;
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * How a typed final answer is asked for: `responseJsonSchema` (`native`, default), or a
   * final-answer tool forced with `toolConfig` (`tool`). Models before Gemini 3 refuse
   * function declarations beside a JSON response type, so a run of theirs with tools takes
   * the tool in either mode.
   */
  readonly outputMode?: OutputMode;
}

interface Content {
  role: "user" | "model";
  parts: GeminiPart[];
}

function callData(call: ToolCall | undefined): GeminiCallData["gemini"] {
  return (call?.providerData as GeminiCallData | undefined)?.gemini ?? {};
}

/** A tool result as the JSON value it holds, else its text. */
function images(m: ToolResultMessage): MediaPart[] {
  return (m.media ?? []).filter((part) => part.type === "image");
}

function resultValue(content: string): unknown {
  try {
    return JSON.parse(content);
  } catch {
    return content;
  }
}

/**
 * The transcript as Gemini contents: model turns echoed part for part (thought signatures
 * included), tool results as `functionResponse` parts whose `response` is always an object
 * (`{output}` or `{error}`), with the call's id only when Gemini gave one.
 */
export function geminiContents(messages: readonly Message[]): { system: string[]; contents: Content[] } {
  const system: string[] = [];
  const contents: Content[] = [];
  const calls = new Map<string, ToolCall>();
  const userParts = (): GeminiPart[] => {
    const last = contents.at(-1);
    if (last?.role === "user") return last.parts;
    const fresh: Content = { role: "user", parts: [] };
    contents.push(fresh);
    return fresh.parts;
  };
  for (const m of messages) {
    if (m.role === "system") system.push(m.content);
    else if (m.role === "user") userParts().push({ text: m.content });
    else if (m.role === "assistant") {
      for (const c of m.toolCalls) calls.set(c.id, c);
      const verbatim = (m.providerData as { gemini?: { parts?: GeminiPart[] } } | undefined)?.gemini?.parts;
      const parts = verbatim ?? [
        ...(m.content ? [{ text: m.content }] : []),
        ...m.toolCalls.map((c) => {
          const data = callData(c);
          const args = typeof c.arguments === "string" ? resultValue(c.arguments || "{}") : (c.arguments ?? {});
          return {
            functionCall: { ...(data.synthesizedId ? {} : { id: c.id }), name: c.name, args },
            ...(data.thoughtSignature ? { thoughtSignature: data.thoughtSignature } : {}),
          };
        }),
      ];
      // Gemini refuses a content with no parts; an empty model turn carries nothing to replay.
      if (parts.length > 0) contents.push({ role: "model", parts });
    } else {
      const call = calls.get(m.callId);
      const value = resultValue(m.content);
      userParts().push({
        functionResponse: {
          ...(call && !callData(call).synthesizedId ? { id: m.callId } : {}),
          name: m.toolName,
          response: m.isError ? { error: value } : { output: value },
          // Images ride in the response's own parts (multimodal function responses); audio stays named in the text.
          ...(images(m).length > 0
            ? { parts: images(m).map((image) => ({ inlineData: { mimeType: image.mimeType, data: image.data } })) }
            : {}),
        },
      });
    }
  }
  return { system, contents };
}

function toolConfig(choice: ToolChoice): unknown {
  if (typeof choice === "object")
    return { functionCallingConfig: { mode: "ANY", allowedFunctionNames: [choice.name] } };
  const mode = choice === "required" ? "ANY" : choice === "none" ? "NONE" : "AUTO";
  return { functionCallingConfig: { mode } };
}

/** Output limits and the typed answer's JSON response: `generationConfig`, when there is either. */
function generationConfig(maxTokens: number | undefined, request: ModelRequest): Record<string, unknown> {
  const config = {
    ...(maxTokens === undefined ? {} : { maxOutputTokens: maxTokens }),
    ...(request.output
      ? {
          responseMimeType: "application/json",
          responseJsonSchema: geminiDialect.toDialect(request.output.schema).schema,
        }
      : {}),
  };
  return Object.keys(config).length > 0 ? { generationConfig: config } : {};
}

/** Streamed Gemini: every `data:` is a whole response chunk; no end marker, so a finish reason proves completion. */
class GeminiDecoder implements StreamDecoder {
  private readonly turn = new GeminiTurn();
  push(sse: SseEvent): ModelStreamEvent[] {
    return this.turn.add(parseData("gemini", sse.data));
  }
  end(): ModelResponse {
    if (!this.turn.complete) throw truncatedStream("gemini", "a chunk with a finishReason");
    return this.turn.result();
  }
}

/** Gemini models before 3, which refuse function declarations beside a JSON response type. */
const BEFORE_GEMINI_3 = /^(?:models\/)?gemini-[12][.-]/;

/** The Gemini wire: `:generateContent`, or `:streamGenerateContent?alt=sse` when streaming. */
export function geminiCodec(options: GeminiOptions): WireCodec {
  const field = options.schemaField ?? "parametersJsonSchema";
  const dialect = field === "parameters" ? geminiLegacyDialect : geminiDialect;
  const outputMode = options.outputMode ?? "native";
  return {
    provider: "gemini",
    outputMode,
    // Before Gemini 3, a run with tools gets its answer through the final-answer tool.
    outputModeFor: (_format, tools) => (tools.length > 0 && BEFORE_GEMINI_3.test(options.model) ? "tool" : outputMode),
    request(request: ModelRequest, stream: boolean) {
      const { system, contents } = geminiContents(request.messages);
      const instructions = [...(request.instructions ? [request.instructions] : []), ...system];
      const declarations = request.tools.map((t) => ({
        name: t.name,
        ...(t.description ? { description: t.description } : {}),
        [field]: dialect.toDialect(t.parameters).schema,
      }));
      const body = {
        contents,
        ...(instructions.length > 0 ? { systemInstruction: { parts: instructions.map((text) => ({ text })) } } : {}),
        ...(declarations.length > 0 ? { tools: [{ functionDeclarations: declarations }] } : {}),
        ...(declarations.length > 0 && request.toolChoice ? { toolConfig: toolConfig(request.toolChoice) } : {}),
        ...generationConfig(options.maxTokens, request),
      };
      const base = `${options.baseURL.replace(/\/+$/, "")}/v1beta/models/${encodeURIComponent(options.model)}`;
      return {
        url: stream ? `${base}:streamGenerateContent?alt=sse` : `${base}:generateContent`,
        headers: { "x-goog-api-key": options.apiKey, ...options.headers },
        body,
      };
    },
    parse(body) {
      const turn = new GeminiTurn();
      turn.add(body);
      return turn.result();
    },
    decoder: () => new GeminiDecoder(),
  };
}
