import { fragments, type ScriptedTurn, type WireRenderer } from "./loopback.js";

let counter = 0;

function items(turn: ScriptedTurn) {
  const out: Record<string, unknown>[] = [];
  // Reasoning models put a reasoning item first; it must be echoed back with the calls.
  if (turn.calls?.length) out.push({ type: "reasoning", id: "rs_1", summary: [] });
  if (turn.text || turn.refusal) {
    out.push({
      type: "message",
      id: "msg_1",
      status: "completed",
      role: "assistant",
      content: [
        turn.refusal
          ? { type: "refusal", refusal: turn.refusal }
          : { type: "output_text", text: turn.text, annotations: [], logprobs: [] },
      ],
    });
  }
  for (const c of turn.calls ?? []) {
    counter += 1;
    out.push({
      type: "function_call",
      id: `fc_${counter}`,
      call_id: c.id ?? `call_${counter}`,
      name: c.name,
      arguments: JSON.stringify(c.args),
      status: "completed",
    });
  }
  return out;
}

function response(turn: ScriptedTurn, output: Record<string, unknown>[]) {
  const u = turn.usage ?? { input: 10, output: 5 };
  return {
    id: "resp_1",
    object: "response",
    created_at: 1,
    status: "completed",
    error: null,
    incomplete_details: null,
    instructions: null,
    model: turn.model ?? "gpt-5-mini",
    tools: [],
    tool_choice: "auto",
    parallel_tool_calls: true,
    metadata: {},
    temperature: 1,
    top_p: 1,
    output,
    usage: {
      input_tokens: u.input,
      input_tokens_details: { cached_tokens: u.cached ?? 0, cache_write_tokens: 0 },
      output_tokens: u.output,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: u.input + u.output,
    },
  };
}

/** The OpenAI Responses API as the sheet gives it: a `response` object, or typed SSE events ending in response.completed. */
export function openAiResponsesRenderer(): WireRenderer {
  return {
    isStream: (req) => req.body.stream === true,
    json: (turn) => response(turn, items(turn)),
    sse(turn) {
      let seq = 0;
      const ev = (value: Record<string, unknown>) =>
        `event: ${value.type}\ndata: ${JSON.stringify({ ...value, sequence_number: seq++ })}\n\n`;
      const output = items(turn);
      const frames = [ev({ type: "response.created", response: { ...response(turn, []), status: "in_progress" } })];
      output.forEach((item, output_index) => {
        if (item.type === "function_call") {
          frames.push(
            ev({
              type: "response.output_item.added",
              output_index,
              item: { ...item, arguments: "", status: "in_progress" },
            }),
          );
          for (const delta of fragments(String(item.arguments))) {
            frames.push(ev({ type: "response.function_call_arguments.delta", item_id: item.id, output_index, delta }));
          }
          frames.push(
            ev({
              type: "response.function_call_arguments.done",
              item_id: item.id,
              output_index,
              name: item.name,
              arguments: item.arguments,
            }),
          );
        } else {
          frames.push(ev({ type: "response.output_item.added", output_index, item: { ...item, content: [] } }));
          if (item.type === "message" && turn.refusal) {
            for (const delta of fragments(turn.refusal, 2)) {
              frames.push(
                ev({ type: "response.refusal.delta", item_id: item.id, output_index, content_index: 0, delta }),
              );
            }
            frames.push(
              ev({
                type: "response.refusal.done",
                item_id: item.id,
                output_index,
                content_index: 0,
                refusal: turn.refusal,
              }),
            );
          } else if (item.type === "message") {
            for (const delta of fragments(turn.text ?? "", 2)) {
              frames.push(
                ev({
                  type: "response.output_text.delta",
                  item_id: item.id,
                  output_index,
                  content_index: 0,
                  delta,
                  logprobs: [],
                }),
              );
            }
          }
        }
        frames.push(ev({ type: "response.output_item.done", output_index, item }));
      });
      frames.push(ev({ type: "response.completed", response: response(turn, output) }));
      return frames;
    },
    errorBody(status) {
      const type = status === 429 ? "rate_limit_exceeded" : status === 400 ? "invalid_request_error" : "server_error";
      return { error: { message: `scripted ${status}`, type, param: null, code: null } };
    },
    errorEvent: () =>
      `event: error\ndata: ${JSON.stringify({ type: "error", code: "server_error", message: "The server had an error.", param: null, sequence_number: 99 })}\n\n`,
  };
}
