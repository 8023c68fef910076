import { describe, expect, it } from "vitest";
import * as aiSdk from "../../src/adapters/ai-sdk/index.js";
import * as langchain from "../../src/adapters/langchain/index.js";
import * as openAiAgents from "../../src/adapters/openai-agents/index.js";

// The public surfaces of the adapter subpaths: a change here is a change users see.
describe("adapter subpath exports", () => {
  it("toolwright/ai-sdk", () => {
    expect(Object.keys(aiSdk).sort()).toEqual(["aiSdkTools", "fromAiSdkTools", "repairToolCall"]);
  });

  it("toolwright/openai-agents", () => {
    expect(Object.keys(openAiAgents).sort()).toEqual(["openAiAgentsTools"]);
  });

  it("toolwright/langchain", () => {
    expect(Object.keys(langchain).sort()).toEqual(["fromLangChainTools", "interruptOn", "langChainTools"]);
  });
});
