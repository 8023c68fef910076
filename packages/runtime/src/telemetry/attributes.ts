/**
 * Attribute names of the OpenTelemetry GenAI semantic conventions (development status,
 * as of semconv 1.37+: `gen_ai.provider.name` replaced `gen_ai.system`), plus the few
 * toolwright adds under its own prefix.
 */
export const GenAI = {
  operation: "gen_ai.operation.name",
  provider: "gen_ai.provider.name",
  agentName: "gen_ai.agent.name",
  conversationId: "gen_ai.conversation.id",
  requestModel: "gen_ai.request.model",
  responseModel: "gen_ai.response.model",
  finishReasons: "gen_ai.response.finish_reasons",
  inputTokens: "gen_ai.usage.input_tokens",
  outputTokens: "gen_ai.usage.output_tokens",
  cacheReadTokens: "gen_ai.usage.cache_read.input_tokens",
  toolName: "gen_ai.tool.name",
  toolCallId: "gen_ai.tool.call.id",
  toolType: "gen_ai.tool.type",
  toolDescription: "gen_ai.tool.description",
  toolArguments: "gen_ai.tool.call.arguments",
  toolResult: "gen_ai.tool.call.result",
  inputMessages: "gen_ai.input.messages",
  outputMessages: "gen_ai.output.messages",
  systemInstructions: "gen_ai.system_instructions",
  errorType: "error.type",
  mcpMethod: "mcp.method.name",
  mcpSession: "mcp.session.id",
  jsonRpcId: "jsonrpc.request.id",
  outcome: "toolwright.call.outcome",
  attempts: "toolwright.call.attempts",
  runStatus: "toolwright.run.status",
  costUsd: "toolwright.usage.cost_usd",
} as const;

/** The convention's provider names for toolwright's `provider:` prefixes; others pass as they are. */
const PROVIDERS: Readonly<Record<string, string>> = {
  openai: "openai",
  anthropic: "anthropic",
  google: "gcp.gemini",
  gemini: "gcp.gemini",
};

/** `openai:gpt-5-mini` → `{ provider: "openai", model: "gpt-5-mini" }`. */
export function modelParts(modelId: string): { readonly provider: string; readonly model: string } {
  const colon = modelId.indexOf(":");
  if (colon < 0) return { provider: "unknown", model: modelId };
  const prefix = modelId.slice(0, colon);
  return { provider: PROVIDERS[prefix] ?? prefix, model: modelId.slice(colon + 1) };
}
