import { Agent, type Dispatcher, request } from "undici";
import { ProviderError } from "./errors.js";
import { isRetryableStatus } from "./retry.js";

/** A POST as a provider adapter builds it. */
export interface WireRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
}

/** A successful response whose body has not been read yet. */
export interface WireResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Dispatcher.ResponseData["body"];
}

let shared: Agent | undefined;

/** One keep-alive connection pool for every provider in the process, unless a model is given its own. */
export function sharedDispatcher(): Agent {
  shared ??= new Agent({ keepAliveTimeout: 30_000, connections: 32 });
  return shared;
}

/** Flattens undici's header record (values may be arrays) into lower-case single strings. */
export function flatHeaders(headers: Dispatcher.ResponseData["headers"]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
  }
  return out;
}

/** The provider's own words from an error body: OpenAI, Anthropic and Gemini all nest them under `error`. */
function summarize(body: unknown): { message?: string; type?: string; requestId?: string } {
  if (typeof body !== "object" || body === null) return {};
  const b = body as {
    error?: { message?: unknown; type?: unknown; status?: unknown; code?: unknown };
    request_id?: unknown;
  };
  const e = b.error ?? {};
  const type = [e.type, e.status, e.code].find((x) => typeof x === "string") as string | undefined;
  return {
    ...(typeof e.message === "string" ? { message: e.message } : {}),
    ...(type === undefined ? {} : { type }),
    ...(typeof b.request_id === "string" ? { requestId: b.request_id } : {}),
  };
}

const HINTS: Record<number, string> = {
  400: "the provider refused the request as sent; check the model name and the tool schemas",
  401: "check the API key (environment variable or the apiKey option)",
  403: "the API key lacks access to this model or endpoint",
  404: "check the model name and the base URL",
};

/** Builds the typed error for a non-2xx response, reading (a capped amount of) its body. */
export async function errorFromResponse(provider: string, res: WireResponse): Promise<ProviderError> {
  const text = (await res.body.text().catch(() => "")).slice(0, 16_384);
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (a proxy's HTML page): keep the text.
  }
  const s = summarize(body);
  const requestId = res.headers["x-request-id"] ?? res.headers["request-id"] ?? s.requestId;
  const hint = HINTS[res.status];
  const message =
    `${provider} answered HTTP ${res.status}${s.type ? ` (${s.type})` : ""}: ${s.message ?? (text.slice(0, 300) || "no body")}` +
    (requestId ? ` [request ${requestId}]` : "") +
    (hint ? ` — ${hint}` : "");
  return new ProviderError(message, {
    provider,
    status: res.status,
    retryable: isRetryableStatus(res.status, res.headers),
    body,
    headers: res.headers,
    ...(requestId === undefined ? {} : { requestId }),
  });
}

/** Sends one POST with a JSON body; the caller reads (or streams) the body of a 2xx and gets a typed error otherwise. */
export async function post(
  provider: string,
  wire: WireRequest,
  dispatcher: Dispatcher,
  signal: AbortSignal,
): Promise<WireResponse> {
  const res = await request(wire.url, {
    method: "POST",
    headers: { "content-type": "application/json", ...wire.headers },
    body: JSON.stringify(wire.body),
    dispatcher,
    signal,
  });
  const response = { status: res.statusCode, headers: flatHeaders(res.headers), body: res.body };
  if (res.statusCode >= 200 && res.statusCode < 300) return response;
  throw await errorFromResponse(provider, response);
}
