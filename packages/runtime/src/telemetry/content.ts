import type { Message } from "../model/messages.js";

/** One message in the conventions' JSON shape: a role and typed parts. */
interface ConventionMessage {
  readonly role: string;
  readonly parts: readonly Record<string, unknown>[];
}

/**
 * Messages as the GenAI conventions record them in `gen_ai.input.messages` and
 * `gen_ai.output.messages`: text, tool-call and tool-call-response parts.
 */
export function conventionMessages(messages: readonly Message[]): string {
  return JSON.stringify(messages.map(conventionMessage));
}

function conventionMessage(message: Message): ConventionMessage {
  switch (message.role) {
    case "system":
    case "user":
      return { role: message.role, parts: [{ type: "text", content: message.content }] };
    case "assistant":
      return {
        role: "assistant",
        parts: [
          ...(message.content ? [{ type: "text", content: message.content }] : []),
          ...message.toolCalls.map((call) => ({
            type: "tool_call",
            id: call.id,
            name: call.name,
            arguments: call.arguments,
          })),
        ],
      };
    case "tool":
      return { role: "tool", parts: [{ type: "tool_call_response", id: message.callId, response: message.content }] };
  }
}
