import type { AssistantMessage, TokenUsage, ToolCall } from "../model/messages.js";
import type { FinishReason, Model, ModelRequest, ModelResponse, ModelStreamEvent, OutputMode } from "../model/model.js";

/** One tool call of a scripted turn. */
export interface ScriptedCall {
  readonly name: string;
  /** An object (sent as its JSON text, as most APIs do) or a raw string sent as is, e.g. broken JSON. */
  readonly args?: Readonly<Record<string, unknown>> | string | null;
  /** Defaults to `call_<request number>_<index>`, unique per model. */
  readonly id?: string;
}

/** One scripted model turn. */
export interface ScriptedTurn {
  readonly text?: string;
  readonly toolCalls?: readonly ScriptedCall[];
  /** Missing counts are 0. */
  readonly usage?: Partial<TokenUsage>;
  /** Defaults to `tool_calls` when there are calls, else `stop`. */
  readonly finishReason?: FinishReason;
}

/** A turn: final text, a scripted turn, or a function of the request (to answer from what the model was shown). */
export type ScriptStep =
  | string
  | ScriptedTurn
  | ((request: ModelRequest, index: number) => string | ScriptedTurn | Promise<string | ScriptedTurn>);

/** Options of {@link FakeModel.script}. */
export interface FakeModelOptions {
  /** The model id, for prices (default `"fake:scripted"`). */
  readonly id?: string;
  /** Characters per streamed text or argument fragment (default 4). */
  readonly chunkSize?: number;
  /** How it gives a typed final answer, as a provider would say (default `native`: text, with `request.output` recorded). */
  readonly outputMode?: OutputMode;
}

/**
 * A model that plays a script, one turn per request, with no network. It records every
 * request (`requests`), so a test can assert what the model was shown, and it implements
 * both `generate` and `stream` (which fragments text and tool arguments).
 *
 * @example
 * ```ts
 * const model = FakeModel.script([
 *   { toolCalls: [{ name: "getWeather", args: { city: "Paris" } }] },
 *   "It is 18 °C in Paris.",
 * ]);
 * const result = await new Agent({ name: "weather", model, tools: [weather] }).run("Paris?");
 * model.requests[1].messages.at(-1); // the tool result the model read
 * ```
 */
export class FakeModel implements Model {
  readonly id: string;
  readonly outputMode: OutputMode;
  /** Every request received, in order (messages and tools copied when received). */
  readonly requests: ModelRequest[] = [];
  readonly #script: readonly ScriptStep[];
  readonly #chunkSize: number;

  private constructor(script: readonly ScriptStep[], options: FakeModelOptions) {
    this.#script = script;
    this.id = options.id ?? "fake:scripted";
    this.outputMode = options.outputMode ?? "native";
    this.#chunkSize = Math.max(1, options.chunkSize ?? 4);
  }

  /** A model that answers request `i` with `turns[i]`. */
  static script(turns: readonly ScriptStep[], options: FakeModelOptions = {}): FakeModel {
    return new FakeModel(turns, options);
  }

  /** Scripted turns not played yet. */
  get remaining(): number {
    return this.#script.length - this.requests.length;
  }

  /** Plays the next turn as one response. */
  async generate(request: ModelRequest): Promise<ModelResponse> {
    return this.#play(request);
  }

  /** Plays the next turn as a stream: text and each call's arguments in fragments, then `finish`. */
  async *stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
    const response = await this.#play(request);
    const { content, toolCalls } = response.message;
    for (const delta of chunks(content, this.#chunkSize)) yield { type: "text-delta", delta };
    for (const [index, call] of toolCalls.entries()) {
      yield { type: "tool-call-start", index, id: call.id, name: call.name };
      const text = typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments ?? {});
      for (const delta of chunks(text, this.#chunkSize)) yield { type: "tool-call-delta", index, delta };
      yield { type: "tool-call-end", index, call };
    }
    yield { type: "finish", response };
  }

  async #play(request: ModelRequest): Promise<ModelResponse> {
    request.signal?.throwIfAborted();
    const index = this.requests.length;
    this.requests.push({ ...request, messages: [...request.messages], tools: [...request.tools] });
    const step = this.#script[index];
    if (step === undefined) {
      throw new Error(
        `FakeModel script has ${this.#script.length} turn(s) but got request ${index + 1}; add a turn to FakeModel.script([...]). ` +
          `Last message: ${JSON.stringify(request.messages.at(-1) ?? null)}`,
      );
    }
    const played = typeof step === "function" ? await step(request, index) : step;
    request.signal?.throwIfAborted();
    const turn: ScriptedTurn = typeof played === "string" ? { text: played } : played;
    const toolCalls: ToolCall[] = (turn.toolCalls ?? []).map((c, i) => ({
      id: c.id ?? `call_${index + 1}_${i}`,
      name: c.name,
      arguments:
        c.args === undefined || c.args === null || typeof c.args === "string"
          ? (c.args ?? null)
          : JSON.stringify(c.args),
    }));
    const message: AssistantMessage = { role: "assistant", content: turn.text ?? "", toolCalls };
    return {
      message,
      usage: {
        inputTokens: turn.usage?.inputTokens ?? 0,
        outputTokens: turn.usage?.outputTokens ?? 0,
        cachedInputTokens: turn.usage?.cachedInputTokens ?? 0,
      },
      finishReason: turn.finishReason ?? (toolCalls.length ? "tool_calls" : "stop"),
    };
  }
}

function* chunks(text: string, size: number): Generator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}
