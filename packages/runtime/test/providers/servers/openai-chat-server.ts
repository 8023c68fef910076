import { type Captured, fragments, type ScriptedTurn, type WireRenderer } from "./loopback.js";

/** Local-server misbehaviours the chat renderer can imitate (provider sheet, section 6). */
export interface ChatServerQuirks {
  /** Ollama before 0.4.7: no `index` on streamed calls. */
  readonly noIndex?: boolean;
  /** Ollama 2026: `index` 0 for every call. */
  readonly indexAlwaysZero?: boolean;
  /** Ollama native / llama.cpp: arguments as an object, not a string. */
  readonly argumentsAsObject?: boolean;
  /** LM Studio: `name: ""` on every fragment after the first. */
  readonly emptyNamesAfterFirst?: boolean;
  /** gpt-4o / Ollama: `finish_reason: "stop"` on a tool turn. */
  readonly finishStopForCalls?: boolean;
  /** Some servers: no `[DONE]` line. */
  readonly noDone?: boolean;
}

let counter = 0;
/** One id per response, as OpenAI gives them: LangGraph merges messages that share an id. */
let responses = 0;

function callId(id: string | null | undefined): string | undefined {
  if (id === null) return undefined;
  counter += 1;
  return id ?? `call_${counter}`;
}

function usage(turn: ScriptedTurn) {
  const u = turn.usage ?? { input: 10, output: 5 };
  return {
    prompt_tokens: u.input,
    completion_tokens: u.output,
    total_tokens: u.input + u.output,
    prompt_tokens_details: { cached_tokens: u.cached ?? 0 },
    completion_tokens_details: { reasoning_tokens: 0 },
  };
}

function data(value: unknown): string {
  return `data: ${typeof value === "string" ? value : JSON.stringify(value)}\n\n`;
}

/** Chat Completions as the sheet gives it (`chat.completion` and `chat.completion.chunk`), with optional quirks. */
export function openAiChatRenderer(quirks: ChatServerQuirks = {}): WireRenderer {
  const finishFor = (turn: ScriptedTurn) =>
    (turn.calls?.length ?? 0) > 0 && !quirks.finishStopForCalls ? "tool_calls" : "stop";
  const chunk = (id: string, turn: ScriptedTurn, delta: unknown, finish: string | null = null) => ({
    id,
    object: "chat.completion.chunk",
    created: 1,
    model: turn.model ?? "test-model",
    choices: [{ index: 0, delta, finish_reason: finish }],
    usage: null,
  });
  return {
    isStream: (req: Captured) => req.body.stream === true,
    json(turn) {
      responses += 1;
      const calls = (turn.calls ?? []).map((c) => {
        const id = callId(c.id);
        return {
          ...(id ? { id } : {}),
          type: "function",
          function: {
            name: c.name,
            arguments: quirks.argumentsAsObject ? c.args : (c.rawArgs ?? JSON.stringify(c.args)),
          },
        };
      });
      return {
        id: `chatcmpl-${responses}`,
        object: "chat.completion",
        created: 1,
        model: turn.model ?? "test-model",
        choices: [
          {
            index: 0,
            finish_reason: finishFor(turn),
            message: {
              role: "assistant",
              content: turn.text ?? null,
              refusal: turn.refusal ?? null,
              ...(calls.length > 0 ? { tool_calls: calls } : {}),
            },
            logprobs: null,
          },
        ],
        usage: usage(turn),
      };
    },
    sse(turn, req) {
      responses += 1;
      const id = `chatcmpl-${responses}`;
      const frame = (delta: unknown, finish: string | null = null) => chunk(id, turn, delta, finish);
      const frames: string[] = [data(frame({ role: "assistant", content: "" }))];
      for (const piece of fragments(turn.text ?? "", 2)) if (piece) frames.push(data(frame({ content: piece })));
      for (const piece of fragments(turn.refusal ?? "", 2)) if (piece) frames.push(data(frame({ refusal: piece })));
      (turn.calls ?? []).forEach((c, i) => {
        const index = quirks.noIndex ? {} : { index: quirks.indexAlwaysZero ? 0 : i };
        const id = callId(c.id);
        if (quirks.argumentsAsObject) {
          frames.push(
            data(
              frame({
                tool_calls: [{ ...index, ...(id ? { id } : {}), function: { name: c.name, arguments: c.args } }],
              }),
            ),
          );
          return;
        }
        frames.push(
          data(
            frame({
              tool_calls: [
                { ...index, ...(id ? { id, type: "function" } : {}), function: { name: c.name, arguments: "" } },
              ],
            }),
          ),
        );
        for (const piece of fragments(c.rawArgs ?? JSON.stringify(c.args))) {
          const name = quirks.emptyNamesAfterFirst ? { name: "" } : {};
          frames.push(data(frame({ tool_calls: [{ ...index, function: { ...name, arguments: piece } }] })));
        }
      });
      frames.push(data(frame({}, finishFor(turn))));
      const wantsUsage = (req.body.stream_options as { include_usage?: boolean } | undefined)?.include_usage;
      if (wantsUsage) frames.push(data({ ...frame({}), choices: [], usage: usage(turn) }));
      if (!quirks.noDone) frames.push(data("[DONE]"));
      return frames;
    },
    completingFrame: (frames) => frames.findIndex((frame) => /"finish_reason":"/.test(frame)),
    errorBody(status) {
      const type = status === 429 ? "rate_limit_exceeded" : status === 400 ? "invalid_request_error" : "server_error";
      return { error: { message: `scripted ${status}`, type, param: null, code: null } };
    },
    errorEvent: () =>
      data({ error: { message: "The server had an error while processing your request.", type: "server_error" } }),
  };
}
