// toolwright/langchain: toolwright tools in LangChain.js, and LangChain tools in toolwright.
// `@langchain/core` is an optional peer: only this entry loads it.
export type { AdapterOptions } from "../call.js";
export type { FromLangChainOptions } from "./from-langchain.js";
export { fromLangChainTools } from "./from-langchain.js";
export type { InterruptOnEntry, LangChainToolOptions } from "./to-langchain.js";
export { interruptOn, langChainTools } from "./to-langchain.js";
