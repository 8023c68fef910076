import type { Message, ToolCall, ToolResultMessage } from "../../src/model/messages.js";
import type { Model, ModelRequest, ModelResponse, ModelStreamEvent, ToolDefinition } from "../../src/model/model.js";

/** The two tools every conformance run offers, with canonical schemas as the compiler emits them. */
export const TOOLS: readonly ToolDefinition[] = [
  {
    name: "get_time",
    description: "Current local time in a time zone.",
    parameters: {
      type: "object",
      properties: { zone: { type: "string", description: "IANA zone, e.g. Europe/Paris." } },
      required: ["zone"],
      additionalProperties: false,
    },
    flags: { readOnly: true },
  },
  {
    name: "get_weather",
    description: "Current weather for a city.",
    parameters: {
      type: "object",
      properties: {
        city: { type: "string", minLength: 1 },
        units: { type: "string", enum: ["c", "f"], default: "c" },
      },
      required: ["city"],
      additionalProperties: false,
    },
    flags: { readOnly: true },
  },
];

/** What a driven run produced. */
export interface Driven {
  readonly messages: Message[];
  readonly events: ModelStreamEvent[];
  readonly responses: ModelResponse[];
  /** Every tool execution, in order, with the parsed arguments it got. */
  readonly executions: { readonly name: string; readonly args: unknown }[];
}

function parseArgs(call: ToolCall): unknown {
  if (call.arguments === null || call.arguments === "") return {};
  return typeof call.arguments === "string" ? JSON.parse(call.arguments) : call.arguments;
}

/**
 * A minimal tool loop straight on a {@link Model}: send, run each call once, append the
 * results, repeat until a turn has no calls. Only a turn's `finish` response enters the
 * transcript, as in the real loop.
 */
export async function drive(
  model: Model,
  input: string,
  options: { stream: boolean; signal?: AbortSignal; maxTurns?: number; driven?: Driven },
): Promise<Driven> {
  const out: Driven = options.driven ?? { messages: [], events: [], responses: [], executions: [] };
  out.messages.push({ role: "user", content: input });
  for (let turn = 0; turn < (options.maxTurns ?? 4); turn++) {
    const request: ModelRequest = {
      instructions: "Answer weather and time questions with the tools.",
      messages: [...out.messages],
      tools: TOOLS,
      toolChoice: "auto",
      ...(options.signal ? { signal: options.signal } : {}),
    };
    let response: ModelResponse | undefined;
    if (options.stream && model.stream) {
      for await (const event of model.stream(request)) {
        out.events.push(event);
        if (event.type === "finish") response = event.response;
      }
    } else {
      response = await model.generate(request);
    }
    if (!response) throw new Error("no finish event");
    out.responses.push(response);
    out.messages.push(response.message);
    if (response.message.toolCalls.length === 0) return out;
    for (const call of response.message.toolCalls) {
      const args = parseArgs(call);
      out.executions.push({ name: call.name, args });
      const result: ToolResultMessage = {
        role: "tool",
        callId: call.id,
        toolName: call.name,
        content: call.name === "get_weather" ? JSON.stringify({ temp_c: 16, sky: "fog" }) : "12:00",
        outcome: "ok",
        isError: false,
      };
      out.messages.push(result);
    }
  }
  return out;
}
