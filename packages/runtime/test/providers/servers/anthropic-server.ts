import { fragments, type ScriptedTurn, type WireRenderer } from "./loopback.js";

let counter = 0;

function ev(event: string, value: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(value)}\n\n`;
}

function content(turn: ScriptedTurn) {
  return [
    ...(turn.text ? [{ type: "text" as const, text: turn.text }] : []),
    ...(turn.calls ?? []).map((c) => ({
      type: "tool_use" as const,
      id: c.id ?? `toolu_${++counter}`,
      name: c.name,
      input: c.args,
    })),
  ];
}

function usage(turn: ScriptedTurn) {
  const u = turn.usage ?? { input: 10, output: 5 };
  // Anthropic counts cache reads apart from input_tokens; total input = input + creation + read.
  return {
    input_tokens: u.input - (u.cached ?? 0),
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: u.cached ?? 0,
    output_tokens: u.output,
  };
}

const STATUS_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  429: "rate_limit_error",
  500: "api_error",
  529: "overloaded_error",
};

/** Anthropic Messages as the sheet gives it: a `message` body, or named SSE events from message_start to message_stop. */
export function anthropicRenderer(): WireRenderer {
  const stopReason = (turn: ScriptedTurn) => ((turn.calls?.length ?? 0) > 0 ? "tool_use" : "end_turn");
  return {
    isStream: (req) => req.body.stream === true,
    json: (turn) => ({
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: turn.model ?? "claude-sonnet-4-5",
      content: content(turn),
      stop_reason: stopReason(turn),
      stop_sequence: null,
      usage: usage(turn),
    }),
    sse(turn) {
      const u = usage(turn);
      const frames = [
        ev("message_start", {
          type: "message_start",
          message: {
            id: "msg_1",
            type: "message",
            role: "assistant",
            model: turn.model ?? "claude-sonnet-4-5",
            content: [],
            stop_reason: null,
            usage: { ...u, output_tokens: 1 },
          },
        }),
        ev("ping", { type: "ping" }),
      ];
      content(turn).forEach((block, index) => {
        if (block.type === "text") {
          frames.push(
            ev("content_block_start", {
              type: "content_block_start",
              index,
              content_block: { type: "text", text: "" },
            }),
          );
          for (const text of fragments(turn.text ?? "", 2)) {
            frames.push(
              ev("content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text } }),
            );
          }
        } else {
          frames.push(
            ev("content_block_start", {
              type: "content_block_start",
              index,
              content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
            }),
          );
          for (const partial_json of ["", ...fragments(JSON.stringify(block.input))]) {
            frames.push(
              ev("content_block_delta", {
                type: "content_block_delta",
                index,
                delta: { type: "input_json_delta", partial_json },
              }),
            );
          }
        }
        frames.push(ev("content_block_stop", { type: "content_block_stop", index }));
      });
      frames.push(
        ev("message_delta", {
          type: "message_delta",
          delta: { stop_reason: stopReason(turn), stop_sequence: null },
          usage: { output_tokens: u.output_tokens },
        }),
        ev("message_stop", { type: "message_stop" }),
      );
      return frames;
    },
    errorBody: (status) => ({
      type: "error",
      error: { type: STATUS_TYPES[status] ?? "api_error", message: `scripted ${status}` },
      request_id: "req_ant_1",
    }),
    errorEvent: () => ev("error", { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }),
  };
}
