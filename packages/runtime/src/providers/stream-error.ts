import { ProviderStreamError } from "./errors.js";

/** Error types that say the request itself is wrong: sending it again cannot help. */
const FINAL = new Set([
  "invalid_request_error",
  "authentication_error",
  "permission_error",
  "not_found_error",
  "billing_error",
  "INVALID_ARGUMENT",
  "PERMISSION_DENIED",
  "NOT_FOUND",
]);

/** An error event that arrived inside an HTTP 200 stream, as a typed error (retryable unless the request is at fault). */
export function streamErrorEvent(provider: string, payload: unknown): ProviderStreamError {
  const e = ((payload as { error?: unknown })?.error ?? payload ?? {}) as {
    type?: unknown;
    code?: unknown;
    status?: unknown;
    message?: unknown;
  };
  const type = [e.type, e.status, e.code].find((x) => typeof x === "string") as string | undefined;
  const message = typeof e.message === "string" ? e.message : JSON.stringify(payload);
  return new ProviderStreamError(`${provider} sent an error event mid-stream${type ? ` (${type})` : ""}: ${message}`, {
    provider,
    retryable: type === undefined || !FINAL.has(type),
    body: payload,
  });
}

/** The body ended before the provider's end-of-stream marker. */
export function truncatedStream(provider: string, marker: string): ProviderStreamError {
  return new ProviderStreamError(
    `${provider}: the stream ended before ${marker}; the turn is discarded and can be sent again`,
    { provider, retryable: true },
  );
}

/** Parses one SSE data payload, treating bad JSON as a cut stream. */
export function parseData(provider: string, data: string): unknown {
  try {
    return JSON.parse(data);
  } catch (cause) {
    throw new ProviderStreamError(`${provider}: a stream event was not JSON: ${data.slice(0, 200)}`, {
      provider,
      retryable: true,
      cause,
    });
  }
}
