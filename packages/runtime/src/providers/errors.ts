import { ToolwrightError } from "../errors.js";
import type { RunResult } from "../runner/run-result.js";

/** What is known about a failed provider call. */
export interface ProviderErrorInit {
  readonly provider: string;
  readonly status?: number;
  readonly requestId?: string;
  readonly retryable: boolean;
  /** The error body as the provider sent it (parsed JSON when it was JSON). */
  readonly body?: unknown;
  /** The response headers, for `retry-after` and friends. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly cause?: unknown;
}

/**
 * A model provider failed: an HTTP error, a cut connection, an error event in a stream.
 * The provider's fault (or the network's), not the user's or the model's.
 */
export class ProviderError extends ToolwrightError {
  override name = "ProviderError";
  readonly provider: string;
  readonly status: number | undefined;
  readonly requestId: string | undefined;
  /** Sending the same turn again may succeed (429, 5xx, 529, a reset, a cut stream). */
  readonly retryable: boolean;
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string>>;
  /**
   * Set when this error ended an agent run: what the run produced before it (transcript,
   * usage, steps), as a `RunError` carries it; `undefined` outside a run.
   */
  result: RunResult | undefined;

  constructor(message: string, init: ProviderErrorInit) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.provider = init.provider;
    this.status = init.status;
    this.requestId = init.requestId;
    this.retryable = init.retryable;
    this.body = init.body;
    this.headers = init.headers ?? {};
  }
}

/** The stream was cut before its end, or the provider sent an error event after HTTP 200. */
export class ProviderStreamError extends ProviderError {
  override name = "ProviderStreamError";
}

/** No response within the per-request or total time limit. */
export class ProviderTimeoutError extends ProviderError {
  override name = "ProviderTimeoutError";
}

/**
 * A model is configured wrongly: an unknown model string, a missing API key, a bad base
 * URL. Thrown before any request is made; the message names the fix.
 */
export class ModelConfigError extends ToolwrightError {
  override name = "ModelConfigError";
}
