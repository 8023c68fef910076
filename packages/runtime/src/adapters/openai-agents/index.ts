// toolwright/openai-agents: toolwright tools in the OpenAI Agents SDK.
// `@openai/agents` is an optional peer: only this entry loads it.
export type { AdapterOptions } from "../call.js";
export type { OpenAiAgentsToolOptions } from "./to-openai-agents.js";
export { openAiAgentsTools } from "./to-openai-agents.js";
