import type { ModelResponse, ModelStreamEvent } from "../model/model.js";
import { type AnthropicBlock, parseAnthropicMessage } from "./anthropic-parse.js";
import { CallAccumulator } from "./call-accumulator.js";
import type { StreamDecoder } from "./http-model.js";
import type { SseEvent } from "./sse.js";
import { parseData, streamErrorEvent, truncatedStream } from "./stream-error.js";

interface Building {
  block: Record<string, unknown> & { type: string };
  json: string;
}

/**
 * Assembles a streamed Messages response: blocks by `index`, `input_json_delta` pieces
 * concatenated and parsed once the block stops, `ping` ignored, an `error` event thrown.
 * The finished blocks become the same message a non-streamed call returns.
 */
export class AnthropicDecoder implements StreamDecoder {
  private readonly calls = new CallAccumulator();
  private readonly blocks = new Map<number, Building>();
  private usage: Record<string, unknown> = {};
  private stopReason: string | undefined;
  private model: unknown;
  private done = false;

  push(sse: SseEvent): ModelStreamEvent[] {
    const data = parseData("anthropic", sse.data) as Record<string, unknown>;
    const type = sse.event ?? (data.type as string | undefined);
    const index = typeof data.index === "number" ? data.index : -1;
    switch (type) {
      case "error":
        throw streamErrorEvent("anthropic", data);
      case "message_start": {
        const message = data.message as { usage?: Record<string, unknown>; model?: unknown } | undefined;
        this.usage = { ...(message?.usage ?? {}) };
        this.model = message?.model;
        return [];
      }
      case "content_block_start": {
        const block = { ...(data.content_block as Building["block"]) };
        this.blocks.set(index, { block, json: "" });
        if (block.type === "tool_use") {
          return this.calls.add(String(index), { id: String(block.id), name: String(block.name) });
        }
        if (block.type === "text" && typeof block.text === "string" && block.text) {
          return [{ type: "text-delta", delta: block.text }];
        }
        return [];
      }
      case "content_block_delta":
        return this.delta(index, data.delta as Record<string, unknown>);
      case "message_delta": {
        const delta = data.delta as { stop_reason?: string };
        if (delta?.stop_reason) this.stopReason = delta.stop_reason;
        // Counts in message_delta are cumulative: they replace, not add to, the start's.
        this.usage = { ...this.usage, ...(data.usage as Record<string, unknown>) };
        return [];
      }
      case "message_stop":
        this.done = true;
        return [];
      default:
        return [];
    }
  }

  private delta(index: number, delta: Record<string, unknown>): ModelStreamEvent[] {
    const building = this.blocks.get(index);
    if (!building) return [];
    const { block } = building;
    switch (delta.type) {
      case "text_delta":
        block.text = `${String(block.text ?? "")}${String(delta.text)}`;
        return [{ type: "text-delta", delta: String(delta.text) }];
      case "input_json_delta":
        building.json += String(delta.partial_json ?? "");
        return this.calls.add(String(index), { arguments: String(delta.partial_json ?? "") });
      case "thinking_delta":
        block.thinking = `${String(block.thinking ?? "")}${String(delta.thinking)}`;
        return [];
      case "signature_delta":
        block.signature = String(delta.signature);
        return [];
      default:
        return [];
    }
  }

  end(): ModelResponse {
    if (!this.done) throw truncatedStream("anthropic", "message_stop");
    const content: AnthropicBlock[] = [...this.blocks.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, { block, json }]) => (block.type === "tool_use" ? { ...block, input: parseInput(json) } : block));
    return parseAnthropicMessage({ content, stop_reason: this.stopReason, usage: this.usage, model: this.model });
  }
}

/** The assembled `partial_json`; an empty string means no arguments. Unparseable text stays text for the validator. */
function parseInput(json: string): unknown {
  if (json === "") return {};
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}
