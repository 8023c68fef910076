import type { ModelResponse, ModelStreamEvent } from "../model/model.js";
import { CallAccumulator } from "./call-accumulator.js";
import { finishReason } from "./finish.js";
import type { StreamDecoder } from "./http-model.js";
import { CHAT_FINISH, chatUsage } from "./openai-chat-parse.js";
import { respondingModel } from "./responding-model.js";
import type { SseEvent } from "./sse.js";
import { parseData, streamErrorEvent, truncatedStream } from "./stream-error.js";

interface ChunkCall {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string | Record<string, unknown> };
}

interface Chunk {
  error?: unknown;
  choices?: {
    delta?: { content?: string | null; refusal?: string | null; tool_calls?: ChunkCall[] };
    finish_reason?: string | null;
  }[];
  usage?: unknown;
  model?: unknown;
}

/**
 * Assembles a streamed chat completion. Calls are keyed by `index`, falling back to `id`
 * (Ollama sent no index, then index 0 for every call), so a new id always opens a new call.
 */
export class OpenAiChatDecoder implements StreamDecoder {
  private readonly calls = new CallAccumulator();
  private readonly keyOfIndex = new Map<number, string>();
  private lastKey: string | undefined;
  private opened = 0;
  private text = "";
  private rawFinish: string | undefined;
  private usage: unknown;
  private model: string | undefined;
  private done = false;

  constructor(private readonly provider: string) {}

  push(sse: SseEvent): ModelStreamEvent[] {
    if (sse.data === "[DONE]") {
      this.done = true;
      return [];
    }
    const chunk = parseData(this.provider, sse.data) as Chunk;
    if (chunk.error) throw streamErrorEvent(this.provider, chunk);
    if (chunk.usage) this.usage = chunk.usage;
    this.model ??= respondingModel(chunk.model).model;
    const events: ModelStreamEvent[] = [];
    for (const choice of chunk.choices ?? []) {
      if (choice.finish_reason) this.rawFinish = choice.finish_reason;
      // A refusal under structured output streams in place of the content.
      const content = choice.delta?.content || choice.delta?.refusal;
      if (content) {
        this.text += content;
        events.push({ type: "text-delta", delta: content });
      }
      for (const call of choice.delta?.tool_calls ?? []) {
        events.push(
          ...this.calls.add(this.keyFor(call), {
            id: call.id,
            name: call.function?.name,
            arguments: call.function?.arguments,
          }),
        );
      }
    }
    return events;
  }

  private keyFor(call: ChunkCall): string {
    const index = typeof call.index === "number" ? call.index : undefined;
    let key: string;
    if (call.id && this.calls.has(`id:${call.id}`)) key = `id:${call.id}`;
    else if (call.id) key = this.open(`id:${call.id}`, index);
    else if (index !== undefined && this.keyOfIndex.has(index)) key = this.keyOfIndex.get(index) as string;
    // No id and no index: a fragment naming a tool starts a new call (Ollama sends each call whole).
    else if (index === undefined && this.lastKey !== undefined && !call.function?.name) key = this.lastKey;
    else key = this.open(`n:${this.opened}`, index);
    this.lastKey = key;
    return key;
  }

  private open(key: string, index: number | undefined): string {
    this.opened += 1;
    if (index !== undefined) this.keyOfIndex.set(index, key);
    return key;
  }

  end(): ModelResponse {
    // Some local servers omit [DONE]; a finish_reason also proves the turn is complete.
    if (!this.done && this.rawFinish === undefined) throw truncatedStream(this.provider, "data: [DONE]");
    const toolCalls = this.calls.calls();
    return {
      message: { role: "assistant", content: this.text, toolCalls },
      usage: chatUsage(this.usage),
      finishReason: finishReason(this.rawFinish, toolCalls.length > 0, CHAT_FINISH),
      ...respondingModel(this.model),
    };
  }
}
