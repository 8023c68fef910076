// toolwright/ai-sdk: toolwright tools in the Vercel AI SDK, and AI SDK tools in toolwright.
// `ai` is an optional peer: only this entry loads it.
export type { AdapterOptions } from "../call.js";
export type { FromAiSdkOptions } from "./from-ai-sdk.js";
export { fromAiSdkTools } from "./from-ai-sdk.js";
export type { AiSdkToolOptions } from "./to-ai-sdk.js";
export { aiSdkTools, repairToolCall } from "./to-ai-sdk.js";
