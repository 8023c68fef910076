import { context, SpanKind, SpanStatusCode, type Tracer } from "@opentelemetry/api";
import type { ServedCallEnding, ServedCallStart } from "../runner/observer.js";
import { GenAI } from "./attributes.js";

/**
 * A server span for one MCP `tools/call`, named and attributed as the MCP conventions ask
 * (`tools/call {tool}`, `mcp.method.name`, the session and request ids) with the GenAI
 * tool attributes. Returns what ends it.
 */
export function servedCallSpan(
  tracer: Tracer,
  start: ServedCallStart,
  captureContent: boolean,
): (ending: ServedCallEnding) => void {
  const span = tracer.startSpan(
    `tools/call ${start.toolName}`,
    {
      kind: SpanKind.SERVER,
      attributes: {
        [GenAI.mcpMethod]: "tools/call",
        [GenAI.operation]: "execute_tool",
        [GenAI.toolName]: start.toolName,
        [GenAI.toolCallId]: start.callId,
        [GenAI.mcpSession]: start.sessionId,
        [GenAI.jsonRpcId]: String(start.requestId),
        ...(captureContent ? { [GenAI.toolArguments]: JSON.stringify(start.args ?? {}) } : {}),
      },
    },
    context.active(),
  );
  return (ending) => {
    if ("error" in ending) {
      const error = ending.error;
      span.setAttribute(GenAI.errorType, error instanceof Error ? error.name : "Error");
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
    } else {
      if (captureContent) span.setAttribute(GenAI.toolResult, ending.content);
      if (ending.isError) {
        span.setAttribute(GenAI.errorType, "tool_error");
        span.setStatus({ code: SpanStatusCode.ERROR, message: ending.content });
      }
    }
    span.end();
  };
}
