import type { Model, OutputMode } from "../model/model.js";
import { anthropicCodec } from "./anthropic.js";
import { ModelConfigError } from "./errors.js";
import { geminiCodec } from "./gemini.js";
import { HttpModel, type HttpModelOptions } from "./http-model.js";
import { openAiChatCodec } from "./openai-chat.js";
import type { ChatQuirks, ChatServerKind } from "./openai-chat-quirks.js";
import { openAiResponsesCodec } from "./openai-responses.js";

/** Options of {@link resolveModel}; each one wins over the environment. */
export interface ResolveModelOptions extends HttpModelOptions {
  readonly apiKey?: string;
  readonly baseURL?: string;
  /** For `openai:` models: Chat Completions (default) or the Responses API. */
  readonly api?: "chat" | "responses";
  /** Strict tool schemas (OpenAI default true; Anthropic default false). */
  readonly strict?: boolean;
  readonly maxTokens?: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** Gemini only: which schema field to send. */
  readonly schemaField?: "parametersJsonSchema" | "parameters";
  /** OpenAI-compatible servers only: overrides of single quirks. */
  readonly quirks?: Partial<ChatQuirks>;
  /**
   * How a typed final answer is asked for (Chat Completions, its compatible servers,
   * Anthropic and Gemini): the API's structured output field (`native`, default), or a
   * final-answer tool forced with `tool_choice` (`tool`) where a server or model ignores it.
   */
  readonly outputMode?: OutputMode;
  /** Where keys and base URLs are read from (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** Local servers: their quirks and where they listen by default. */
const LOCAL: Readonly<Record<string, { kind: ChatServerKind; env: string; url: string }>> = {
  ollama: { kind: "ollama", env: "OLLAMA_BASE_URL", url: "http://127.0.0.1:11434/v1" },
  vllm: { kind: "vllm", env: "VLLM_BASE_URL", url: "http://127.0.0.1:8000/v1" },
  llamacpp: { kind: "llamacpp", env: "LLAMACPP_BASE_URL", url: "http://127.0.0.1:8080/v1" },
  lmstudio: { kind: "lmstudio", env: "LMSTUDIO_BASE_URL", url: "http://127.0.0.1:1234/v1" },
  "openai-compatible": { kind: "generic", env: "OPENAI_COMPATIBLE_BASE_URL", url: "" },
};

const PROVIDERS = ["openai", "openai-responses", "anthropic", "gemini", "google", ...Object.keys(LOCAL)];

function key(id: string, options: ResolveModelOptions, names: readonly string[]): string {
  const env = options.env ?? process.env;
  const found = options.apiKey ?? names.map((n) => env[n]).find((v) => v !== undefined && v !== "");
  if (found) return found;
  throw new ModelConfigError(
    `model "${id}" needs an API key: set ${names.join(" or ")} in the environment, or pass { apiKey } in the model options.`,
  );
}

function baseURL(options: ResolveModelOptions, envName: string, fallback: string): string {
  const url = options.baseURL ?? (options.env ?? process.env)[envName] ?? fallback;
  try {
    new URL(url);
  } catch {
    throw new ModelConfigError(
      `"${url}" is not a URL: set ${envName} or the baseURL option to e.g. "http://127.0.0.1:8080"`,
    );
  }
  return url;
}

/**
 * Turns a model string into a {@link Model}, reading keys and base URLs from the
 * environment. A missing key is a {@link ModelConfigError} here, before any request.
 *
 * - `openai:gpt-5-mini` (Chat Completions; `{ api: "responses" }` or `openai-responses:gpt-5-mini` for the Responses API)
 * - `anthropic:claude-sonnet-4-5`
 * - `gemini:gemini-2.5-flash` (or `google:…`)
 * - `openai-compatible:<model>@<baseURL>`, and `ollama:`, `vllm:`, `llamacpp:`, `lmstudio:` `<model>[@<baseURL>]`
 *   for those servers' quirks
 *
 * @example
 * ```ts
 * const model = resolveModel("ollama:qwen3:8b");
 * const local = resolveModel("openai-compatible:my-model@http://127.0.0.1:8000/v1");
 * ```
 */
export function resolveModel(id: string, options: ResolveModelOptions = {}): Model {
  const colon = id.indexOf(":");
  const provider = colon > 0 ? id.slice(0, colon) : "";
  const rest = colon > 0 ? id.slice(colon + 1) : "";
  if (!PROVIDERS.includes(provider) || rest === "") {
    throw new ModelConfigError(
      `model "${id}" is not a model string toolwright knows: write "<provider>:<model>" with provider one of ${PROVIDERS.join(", ")} ` +
        `(e.g. "openai:gpt-5-mini", "openai-compatible:my-model@http://127.0.0.1:8000/v1"), or pass a Model object.`,
    );
  }
  const env = options.env ?? process.env;
  const { maxTokens, headers, outputMode } = options;
  const common = { ...(maxTokens === undefined ? {} : { maxTokens }), ...(headers ? { headers } : {}) };
  const mode = outputMode === undefined ? {} : { outputMode };
  if (provider === "openai" || provider === "openai-responses") {
    const apiKey = key(id, options, ["OPENAI_API_KEY"]);
    const url = baseURL(options, "OPENAI_BASE_URL", "https://api.openai.com/v1");
    const strict = options.strict === undefined ? {} : { strict: options.strict };
    if (provider === "openai-responses" || options.api === "responses") {
      return new HttpModel(
        `openai:${rest}`,
        openAiResponsesCodec({ model: rest, baseURL: url, apiKey, ...strict, ...common }),
        options,
      );
    }
    const quirks = { ...options.quirks, ...(options.strict === undefined ? {} : { strict: options.strict }), ...mode };
    return new HttpModel(
      `openai:${rest}`,
      openAiChatCodec({ model: rest, baseURL: url, apiKey, quirks, ...common }),
      options,
    );
  }
  if (provider === "anthropic") {
    const apiKey = key(id, options, ["ANTHROPIC_API_KEY"]);
    const url = baseURL(options, "ANTHROPIC_BASE_URL", "https://api.anthropic.com");
    const strict = options.strict === undefined ? {} : { strict: options.strict };
    return new HttpModel(
      id,
      anthropicCodec({ model: rest, baseURL: url, apiKey, ...strict, ...mode, ...common }),
      options,
    );
  }
  if (provider === "gemini" || provider === "google") {
    const apiKey = key(id, options, ["GEMINI_API_KEY", "GOOGLE_API_KEY"]);
    const url = baseURL(options, "GEMINI_BASE_URL", "https://generativelanguage.googleapis.com");
    const field = options.schemaField ? { schemaField: options.schemaField } : {};
    return new HttpModel(
      `google:${rest}`,
      geminiCodec({ model: rest, baseURL: url, apiKey, ...field, ...mode, ...common }),
      options,
    );
  }
  const local = LOCAL[provider] as (typeof LOCAL)[string];
  const at = /^(.+)@(https?:\/\/.+)$/.exec(rest);
  const model = at?.[1] ?? rest;
  const url = at?.[2] ?? options.baseURL ?? env[local.env] ?? local.url;
  if (!url) {
    throw new ModelConfigError(
      `model "${id}" names no server: write "openai-compatible:${model}@http://127.0.0.1:8000/v1", or set ${local.env}.`,
    );
  }
  baseURL({ baseURL: url }, local.env, url);
  const apiKey = options.apiKey ?? env.OPENAI_COMPATIBLE_API_KEY;
  return new HttpModel(
    `${provider}:${model}`,
    openAiChatCodec({
      model,
      baseURL: url,
      kind: local.kind,
      ...(apiKey ? { apiKey } : {}),
      ...(options.quirks || outputMode ? { quirks: { ...options.quirks, ...mode } } : {}),
      ...common,
    }),
    options,
  );
}
