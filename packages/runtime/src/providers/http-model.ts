import type { Dispatcher } from "undici";
import type {
  Model,
  ModelRequest,
  ModelResponse,
  ModelStreamEvent,
  OutputFormat,
  OutputMode,
  ToolDefinition,
} from "../model/model.js";
import { ProviderError, ProviderStreamError, ProviderTimeoutError } from "./errors.js";
import { post, sharedDispatcher, type WireRequest } from "./http.js";
import { argumentsText } from "./openai-tools.js";
import { type RetryInfo, type RetryOptions, retryDefaults, retryDelayMs } from "./retry.js";
import { readSse, type SseEvent } from "./sse.js";

/** Turns the SSE events of one streamed turn into model stream events. */
export interface StreamDecoder {
  /** Reads one event; throws a {@link ProviderStreamError} for an error event. */
  push(event: SseEvent): ModelStreamEvent[];
  /** The whole turn once the body ended; throws a retryable {@link ProviderStreamError} if the stream was cut. */
  end(): ModelResponse;
}

/** One provider's wire format: how a turn is sent and how the answer is read. */
export interface WireCodec {
  readonly provider: string;
  request(request: ModelRequest, stream: boolean): WireRequest;
  parse(body: unknown): ModelResponse;
  decoder(): StreamDecoder;
  /** False when this request must not be streamed (a server whose streamed tool calls are broken). */
  streamable?(request: ModelRequest): boolean;
  /** How the API gives a typed final answer (default `native`: it sends `request.output`). */
  readonly outputMode?: OutputMode;
  /** The mode for one run's answer, where its schema or its tools decide it (default `outputMode`). */
  outputModeFor?(format: OutputFormat, tools: readonly ToolDefinition[]): OutputMode;
}

/** Transport options every provider adapter takes. */
export interface HttpModelOptions {
  readonly retry?: RetryOptions;
  /** Time limit of one HTTP attempt, headers and whole body (default 10 minutes). */
  readonly requestTimeoutMs?: number;
  /** Time limit of the whole turn, retries and waits included (default: none). */
  readonly totalTimeoutMs?: number;
  /** An undici dispatcher (e.g. a `Pool` or a proxy agent); defaults to one shared keep-alive agent. */
  readonly dispatcher?: Dispatcher;
  /** Told before each retry wait (for logs and tests). */
  readonly onRetry?: (info: RetryInfo) => void;
}

/** A non-streamed turn told as stream events, for servers whose streamed tool calls cannot be trusted. */
async function* replayed(turn: AsyncIterable<ModelStreamEvent>): AsyncGenerator<ModelStreamEvent> {
  for await (const event of turn) {
    if (event.type !== "finish") continue;
    const { message } = event.response;
    if (message.content) yield { type: "text-delta", delta: message.content };
    for (const [index, call] of message.toolCalls.entries()) {
      yield { type: "tool-call-start", index, id: call.id, name: call.name };
      yield { type: "tool-call-delta", index, delta: argumentsText(call.arguments) };
      yield { type: "tool-call-end", index, call };
    }
    yield event;
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(done, ms);
    function done(): void {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }
    function onAbort(): void {
      clearTimeout(timer);
      reject(signal.reason);
    }
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * A {@link Model} over HTTP: sends the codec's request, retries the whole turn on retryable
 * failures (HTTP status, reset, cut stream, error event), and enforces time limits and
 * the caller's signal. Nothing half-read leaves it: only `finish` carries a response.
 */
export class HttpModel implements Model {
  private readonly retry: Required<RetryOptions>;

  constructor(
    readonly id: string,
    private readonly codec: WireCodec,
    private readonly options: HttpModelOptions = {},
  ) {
    this.retry = retryDefaults(options.retry);
  }

  /** How this API gives a typed final answer: its codec's mode. */
  get outputMode(): OutputMode {
    return this.codec.outputMode ?? "native";
  }

  /** The mode for one run's answer: the codec's choice for that schema and those tools, else its mode. */
  outputModeFor(format: OutputFormat, tools: readonly ToolDefinition[]): OutputMode {
    return this.codec.outputModeFor?.(format, tools) ?? this.outputMode;
  }

  async generate(request: ModelRequest): Promise<ModelResponse> {
    for await (const event of this.turn(request, false)) if (event.type === "finish") return event.response;
    throw new ProviderError(`${this.codec.provider}: the turn ended without a response`, {
      provider: this.codec.provider,
      retryable: false,
    });
  }

  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    if (this.codec.streamable?.(request) === false) return replayed(this.turn(request, false));
    return this.turn(request, true);
  }

  private async *turn(request: ModelRequest, streaming: boolean): AsyncGenerator<ModelStreamEvent> {
    const caller = request.signal;
    const total = this.options.totalTimeoutMs;
    const totalSignal = total === undefined ? undefined : AbortSignal.timeout(total);
    const wire = this.codec.request(request, streaming);
    for (let attempt = 0; ; attempt++) {
      const perRequest = AbortSignal.timeout(this.options.requestTimeoutMs ?? 600_000);
      const signal = AbortSignal.any([perRequest, ...(caller ? [caller] : []), ...(totalSignal ? [totalSignal] : [])]);
      let yielded = false;
      try {
        const res = await post(this.codec.provider, wire, this.options.dispatcher ?? sharedDispatcher(), signal);
        if (!streaming) {
          yield { type: "finish", response: this.codec.parse(await res.body.json()) };
          return;
        }
        const decoder = this.codec.decoder();
        for await (const sse of readSse(res.body)) {
          for (const event of decoder.push(sse)) {
            yielded = true;
            yield event;
          }
        }
        const response = decoder.end();
        for (const [index, call] of response.message.toolCalls.entries()) yield { type: "tool-call-end", index, call };
        yield { type: "finish", response };
        return;
      } catch (thrown) {
        if (caller?.aborted) throw caller.reason;
        const error = this.classify(thrown, perRequest, totalSignal, wire.url);
        if (!error.retryable || attempt >= this.retry.maxRetries) throw error;
        const delayMs = retryDelayMs(error.headers, attempt + 1, this.retry);
        this.options.onRetry?.({ attempt: attempt + 1, delayMs, error });
        if (yielded) yield { type: "retry", attempt: attempt + 1, error };
        await sleep(
          delayMs,
          AbortSignal.any([...(caller ? [caller] : []), ...(totalSignal ? [totalSignal] : [])]),
        ).catch((reason: unknown) => {
          if (caller?.aborted) throw reason;
          throw this.timeout("total", error);
        });
      }
    }
  }

  private timeout(kind: "total" | "request", cause: unknown): ProviderTimeoutError {
    const ms = kind === "total" ? this.options.totalTimeoutMs : (this.options.requestTimeoutMs ?? 600_000);
    const option = kind === "total" ? "totalTimeoutMs" : "requestTimeoutMs";
    return new ProviderTimeoutError(
      `${this.codec.provider}: no complete answer within ${ms} ms (${option}); raise ${option} in the model options`,
      { provider: this.codec.provider, retryable: kind === "request", cause },
    );
  }

  /** Any failure of one attempt as a typed error saying whether to try again. */
  private classify(
    thrown: unknown,
    perRequest: AbortSignal,
    total: AbortSignal | undefined,
    url: string,
  ): ProviderError {
    if (total?.aborted) return this.timeout("total", thrown);
    if (perRequest.aborted) return this.timeout("request", thrown);
    if (thrown instanceof ProviderError) return thrown;
    const message = thrown instanceof Error ? thrown.message : String(thrown);
    const code = (thrown as { code?: unknown }).code;
    // A reset, a refused connection or a body cut mid-way: the network's fault, worth another try.
    const origin = new URL(url).origin;
    const hint = code === "ECONNREFUSED" ? `; is the server running at ${origin}? (check the base URL)` : "";
    return new ProviderStreamError(
      `${this.codec.provider}: the connection to ${origin} failed (${typeof code === "string" ? `${code}: ` : ""}${message})${hint}`,
      { provider: this.codec.provider, retryable: true, cause: thrown },
    );
  }
}
