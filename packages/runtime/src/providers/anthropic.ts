import { anthropicDialect, anthropicStrictDialect } from "../dialects/anthropic.js";
import type { AssistantMessage, Message, ToolCall, ToolResultMessage } from "../model/messages.js";
import type { ModelRequest, OutputMode, ToolChoice } from "../model/model.js";
import type { JsonSchema } from "../tools/spec.js";
import { type AnthropicBlock, parseAnthropicMessage } from "./anthropic-parse.js";
import { AnthropicDecoder } from "./anthropic-stream.js";
import type { HttpModelOptions, WireCodec } from "./http-model.js";

/** Options of an Anthropic Messages model. */
export interface AnthropicOptions extends HttpModelOptions {
  readonly model: string;
  /** Without `/v1`, e.g. `http://127.0.0.1:8080`. */
  readonly baseURL: string;
  readonly apiKey: string;
  /** `max_tokens` is required by the API (default 4096). */
  readonly maxTokens?: number;
  /** Send `strict: true` tools with the strict schema subset (default false: the full schema, unconstrained decoding). */
  readonly strict?: boolean;
  /** Allow several tool calls per turn (default true); false sends `disable_parallel_tool_use`. */
  readonly parallelToolCalls?: boolean;
  /**
   * How a typed final answer is asked for: `output_config.format` (`native`; the default for
   * models with structured outputs), or a final-answer tool forced with `tool_choice`
   * (`tool`; the default for the models before them: Claude 3.x, Sonnet 4 and Opus 4). An
   * answer schema structured outputs cannot take (an open object such as a `Record`, a
   * recursive type) goes through the tool in either mode. The tool does not go with extended
   * thinking, which refuses a forced tool.
   */
  readonly outputMode?: OutputMode;
  readonly headers?: Readonly<Record<string, string>>;
}

function inputObject(args: ToolCall["arguments"]): Record<string, unknown> {
  if (args === null || args === "") return {};
  if (typeof args !== "string") return { ...args };
  try {
    const parsed: unknown = JSON.parse(args);
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

function assistantBlocks(m: AssistantMessage): AnthropicBlock[] {
  const data = m.providerData as { anthropic?: { content?: AnthropicBlock[] } } | undefined;
  if (Array.isArray(data?.anthropic?.content)) {
    // Verbatim, thinking included; a tool_use whose JSON never parsed is sent with the input it can carry.
    return data.anthropic.content.map((b) =>
      b.type === "tool_use" && (typeof b.input !== "object" || b.input === null) ? { ...b, input: {} } : b,
    );
  }
  return [
    ...(m.content ? [{ type: "text", text: m.content }] : []),
    ...m.toolCalls.map((c) => ({ type: "tool_use", id: c.id, name: c.name, input: inputObject(c.arguments) })),
  ];
}

/**
 * The transcript as Anthropic messages: system text goes to `system`; a turn's tool results
 * open the next user message (as the API demands), followed by any user text.
 */
export function anthropicMessages(messages: readonly Message[]): { system: string[]; messages: unknown[] } {
  const system: string[] = [];
  const out: { role: "user" | "assistant"; content: AnthropicBlock[] }[] = [];
  const userTurn = (): AnthropicBlock[] => {
    const last = out.at(-1);
    if (last?.role === "user") return last.content;
    const fresh = { role: "user" as const, content: [] as AnthropicBlock[] };
    out.push(fresh);
    return fresh.content;
  };
  for (const m of messages) {
    if (m.role === "system") system.push(m.content);
    else if (m.role === "assistant") out.push({ role: "assistant", content: assistantBlocks(m) });
    else if (m.role === "tool") {
      userTurn().push({
        type: "tool_result",
        tool_use_id: m.callId,
        content: toolResultContent(m),
        is_error: m.isError,
      });
    } else if (m.content) userTurn().push({ type: "text", text: m.content });
  }
  // A lone text block is sent as a plain string, the form the sheet shows.
  const messagesOut = out.map((m) =>
    m.content.length === 1 && m.content[0]?.type === "text" && m.role === "user"
      ? { role: m.role, content: m.content[0].text }
      : m,
  );
  return { system, messages: messagesOut };
}

/**
 * A tool result's content: its text, and its images as image blocks (Anthropic takes
 * base64 images in a tool_result; it takes no audio, which stays named in the text).
 */
function toolResultContent(m: ToolResultMessage): string | AnthropicBlock[] {
  const images = (m.media ?? []).filter((part) => part.type === "image");
  if (images.length === 0) return m.content;
  return [
    ...(m.content ? [{ type: "text", text: m.content }] : []),
    ...images.map((image) => ({
      type: "image",
      source: { type: "base64", media_type: image.mimeType, data: image.data },
    })),
  ];
}

function anthropicChoice(choice: ToolChoice, disableParallel: boolean): Record<string, unknown> {
  const base =
    choice === "auto"
      ? { type: "auto" }
      : choice === "required"
        ? { type: "any" }
        : choice === "none"
          ? { type: "none" }
          : { type: "tool", name: choice.name };
  return disableParallel && base.type !== "none" ? { ...base, disable_parallel_tool_use: true } : base;
}

/** Claude models without structured outputs (before Sonnet 4.5 and Opus 4.1). */
const BEFORE_STRUCTURED_OUTPUTS = /^claude-(?:instant|2|3)|^claude-(?:sonnet|opus)-4(?:-0)?(?:-\d{8})?$/;

/** The default mode of `model`: `tool` for the models before structured outputs. */
export function anthropicOutputMode(model: string): OutputMode {
  return BEFORE_STRUCTURED_OUTPUTS.test(model) ? "tool" : "native";
}

/** True when structured outputs take `schema`: the strict subset, with no recursion (the API refuses it). */
function fitsStructuredOutputs(schema: JsonSchema): boolean {
  const { notes } = anthropicStrictDialect.toDialect(schema);
  return !notes.some((note) => note.severity === "error" || note.code === "recursive-ref");
}

/** The Anthropic Messages wire: `POST {baseURL}/v1/messages`, streamed as named SSE events. */
export function anthropicCodec(options: AnthropicOptions): WireCodec {
  const dialect = options.strict ? anthropicStrictDialect : anthropicDialect;
  const outputMode = options.outputMode ?? anthropicOutputMode(options.model);
  return {
    provider: "anthropic",
    outputMode,
    outputModeFor: (format) => (outputMode === "native" && fitsStructuredOutputs(format.schema) ? "native" : "tool"),
    request(request: ModelRequest, stream: boolean) {
      const { system, messages } = anthropicMessages(request.messages);
      const instructions = [...(request.instructions ? [request.instructions] : []), ...system].join("\n\n");
      const tools = request.tools.map((t) => ({
        name: t.name,
        ...(t.description ? { description: t.description } : {}),
        input_schema: dialect.toDialect(t.parameters).schema,
        ...(options.strict ? { strict: true } : {}),
      }));
      const choice = request.toolChoice ?? "auto";
      const body = {
        model: options.model,
        max_tokens: options.maxTokens ?? 4096,
        ...(instructions ? { system: instructions } : {}),
        messages,
        ...(tools.length > 0
          ? { tools, tool_choice: anthropicChoice(choice, options.parallelToolCalls === false) }
          : {}),
        // Structured outputs decode under the strict subset, as strict tools do.
        ...(request.output
          ? {
              output_config: {
                format: { type: "json_schema", schema: anthropicStrictDialect.toDialect(request.output.schema).schema },
              },
            }
          : {}),
        ...(stream ? { stream: true } : {}),
      };
      return {
        url: `${options.baseURL.replace(/\/+$/, "")}/v1/messages`,
        headers: { "x-api-key": options.apiKey, "anthropic-version": "2023-06-01", ...options.headers },
        body,
      };
    },
    parse: parseAnthropicMessage,
    decoder: () => new AnthropicDecoder(),
  };
}
