import type { ToolCall } from "../model/messages.js";
import type { FinishReason, ModelResponse, ModelStreamEvent } from "../model/model.js";
import { parsedArguments } from "../validation/parsed-arguments.js";
import { CallAccumulator } from "./call-accumulator.js";
import { finishReason } from "./finish.js";
import { respondingModel } from "./responding-model.js";
import { streamErrorEvent } from "./stream-error.js";

/** A Gemini content part, kept as sent so it can be echoed back (thought signatures included). */
export type GeminiPart = Readonly<Record<string, unknown>>;

/** What toolwright keeps on a Gemini tool call to send it back right. */
export interface GeminiCallData {
  readonly gemini: { readonly thoughtSignature?: string; readonly synthesizedId?: boolean };
}

/** Gemini finish reasons mapped onto ours. */
const FINISH: Readonly<Record<string, FinishReason>> = {
  STOP: "stop",
  MAX_TOKENS: "length",
  SAFETY: "content_filter",
  RECITATION: "content_filter",
  BLOCKLIST: "content_filter",
  PROHIBITED_CONTENT: "content_filter",
  SPII: "content_filter",
  IMAGE_SAFETY: "content_filter",
  MALFORMED_FUNCTION_CALL: "error",
  UNEXPECTED_TOOL_CALL: "error",
  TOO_MANY_TOOL_CALLS: "error",
};

interface Chunk {
  error?: unknown;
  candidates?: { content?: { parts?: GeminiPart[] }; finishReason?: string }[];
  promptFeedback?: { blockReason?: string };
  usageMetadata?: Record<string, number>;
  modelVersion?: unknown;
}

/**
 * One Gemini turn assembled from response chunks: a non-streamed response is one chunk,
 * a stream is many, each a complete GenerateContentResponse. Function calls arrive whole;
 * missing ids are made up (and never sent back to Gemini).
 */
export class GeminiTurn {
  private readonly calls = new CallAccumulator();
  private readonly parts: GeminiPart[] = [];
  private text = "";
  private rawFinish: string | undefined;
  private blocked = false;
  private usage: Record<string, number> = {};
  private model: string | undefined;

  /** True once a chunk carried a finish reason (or a block): the stream is complete. */
  get complete(): boolean {
    return this.rawFinish !== undefined || this.blocked;
  }

  add(body: unknown): ModelStreamEvent[] {
    const chunk = body as Chunk;
    if (chunk.error) throw streamErrorEvent("gemini", chunk);
    if (chunk.usageMetadata) this.usage = chunk.usageMetadata;
    this.model ??= respondingModel(chunk.modelVersion).model;
    if (chunk.promptFeedback?.blockReason) this.blocked = true;
    const candidate = chunk.candidates?.[0];
    if (candidate?.finishReason) this.rawFinish = candidate.finishReason;
    const events: ModelStreamEvent[] = [];
    for (const part of candidate?.content?.parts ?? []) {
      events.push(...this.part(part));
    }
    return events;
  }

  private part(part: GeminiPart): ModelStreamEvent[] {
    const call = part.functionCall as { id?: string; name?: string; args?: Record<string, unknown> } | undefined;
    if (call?.name) {
      this.parts.push(part);
      const signature = typeof part.thoughtSignature === "string" ? { thoughtSignature: part.thoughtSignature } : {};
      const data: GeminiCallData = { gemini: { ...signature, ...(call.id ? {} : { synthesizedId: true }) } };
      return this.calls.add(`c${this.parts.length}`, {
        id: call.id,
        name: call.name,
        arguments: parsedArguments(call.args ?? {}),
        providerData: data,
      });
    }
    const last = this.parts.at(-1);
    const plain = (p: GeminiPart | undefined) =>
      p !== undefined && typeof p.text === "string" && Object.keys(p).length === 1;
    // Streamed text arrives in pieces: join plain text parts; parts with signatures or thoughts stay whole.
    if (plain(part) && plain(last)) this.parts[this.parts.length - 1] = { text: `${last?.text}${part.text}` };
    else this.parts.push(part);
    if (typeof part.text === "string" && part.thought !== true && part.text) {
      this.text += part.text;
      return [{ type: "text-delta", delta: part.text }];
    }
    return [];
  }

  result(): ModelResponse {
    const toolCalls: ToolCall[] = this.calls.calls();
    const u = this.usage;
    return {
      message: { role: "assistant", content: this.text, toolCalls, providerData: { gemini: { parts: this.parts } } },
      usage: {
        inputTokens: u.promptTokenCount ?? 0,
        // Thinking tokens are billed as output.
        outputTokens: (u.candidatesTokenCount ?? 0) + (u.thoughtsTokenCount ?? 0),
        cachedInputTokens: u.cachedContentTokenCount ?? 0,
      },
      finishReason: this.blocked ? "content_filter" : finishReason(this.rawFinish, toolCalls.length > 0, FINISH),
      ...respondingModel(this.model),
    };
  }
}
