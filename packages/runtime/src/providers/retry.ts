/** How a provider call is retried. */
export interface RetryOptions {
  /** Retries after the first attempt (default 2). */
  readonly maxRetries?: number;
  /** First backoff when the server gives no delay; doubles per retry (default 500 ms, at most 8 s). */
  readonly initialDelayMs?: number;
  /** Cap on any wait, including a server's `retry-after` (default 60 s). */
  readonly maxDelayMs?: number;
}

/** What a retry observer is told before each wait. */
export interface RetryInfo {
  /** 1 for the first retry. */
  readonly attempt: number;
  readonly delayMs: number;
  readonly error: Error;
}

const DEFAULTS = { maxRetries: 2, initialDelayMs: 500, maxDelayMs: 60_000 } as const;
const BACKOFF_CAP_MS = 8_000;

/** The options with defaults filled in. */
export function retryDefaults(options: RetryOptions | undefined): Required<RetryOptions> {
  return { ...DEFAULTS, ...options };
}

/** Statuses worth sending again: 408, 409, 429 and every 5xx (529 included). `x-should-retry` overrides. */
export function isRetryableStatus(status: number, headers: Readonly<Record<string, string>>): boolean {
  const should = headers["x-should-retry"];
  if (should === "true") return true;
  if (should === "false") return false;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** The server's requested delay in ms, from `retry-after-ms`, else `retry-after` (seconds or an HTTP date). */
export function serverDelayMs(headers: Readonly<Record<string, string>>, now = Date.now()): number | undefined {
  const ms = Number.parseFloat(headers["retry-after-ms"] ?? "");
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const after = headers["retry-after"];
  if (after === undefined) return undefined;
  const seconds = Number.parseFloat(after);
  if (Number.isFinite(seconds) && /^\s*\d+(\.\d+)?\s*$/.test(after)) return seconds * 1000;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** How long to wait before retry number `attempt` (1-based): the server's delay, else exponential backoff with jitter. */
export function retryDelayMs(
  headers: Readonly<Record<string, string>>,
  attempt: number,
  options: Required<RetryOptions>,
): number {
  const server = serverDelayMs(headers);
  if (server !== undefined) return Math.min(server, options.maxDelayMs);
  const backoff = Math.min(options.initialDelayMs * 2 ** (attempt - 1), BACKOFF_CAP_MS);
  // Up to 25% jitter downwards, so clients that failed together do not retry together.
  return Math.min(backoff * (1 - Math.random() * 0.25), options.maxDelayMs);
}
