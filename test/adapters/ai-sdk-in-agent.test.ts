import { tool as aiTool, jsonSchema } from "ai";
import { Agent, ToolDefinitionError } from "toolwright";
import { fromAiSdkTools } from "toolwright/ai-sdk";
import { resolveModel } from "toolwright/providers";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { type Loopback, nth, startLoopback } from "../../packages/runtime/test/providers/servers/loopback.js";
import { openAiChatRenderer } from "../../packages/runtime/test/providers/servers/openai-chat-server.js";

// Vercel AI SDK tools (zod, jsonSchema()) inside a toolwright Agent, against a loopback
// Chat Completions server.

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** What the model read of each call in request `n`. */
function toolMessages(n: number) {
  const messages = nth(server as Loopback, n).body.messages as {
    role: string;
    tool_call_id?: string;
    content: unknown;
  }[];
  return Object.fromEntries(messages.filter((m) => m.role === "tool").map((m) => [m.tool_call_id, m.content]));
}

const seen: unknown[] = [];
const aiTools = {
  convert: aiTool({
    description: "Convert an amount of money.",
    inputSchema: z.object({
      amount: z.number().describe("How much."),
      currency: z.string().refine((c) => c === c.toUpperCase(), "an ISO code in capitals, e.g. EUR"),
    }),
    execute: async ({ amount, currency }, options) => {
      // ai 6 calls the call's context experimental_context, ai 7 context.
      const { context, experimental_context } = options as { context?: unknown; experimental_context?: unknown };
      seen.push({
        toolCallId: options.toolCallId,
        signal: options.abortSignal instanceof AbortSignal,
        context: context ?? experimental_context,
      });
      return { converted: amount * 2, currency };
    },
  }),
  search: aiTool({
    description: "Search the docs.",
    inputSchema: jsonSchema<{ query: string }>({
      type: "object",
      properties: { query: { type: "string" } },
      required: ["query"],
      additionalProperties: false,
    }),
    execute: async ({ query }) => `found: ${query}`,
    toModelOutput: ({ output }) => ({ type: "text", value: `${output} (2 pages)` }),
  }),
  wipe: aiTool({
    description: "Delete a workspace.",
    inputSchema: z.object({ workspace: z.string() }),
    needsApproval: async ({ workspace }) => workspace !== "scratch",
    execute: async ({ workspace }) => `wiped ${workspace}`,
  }),
};

describe("AI SDK tools inside a toolwright Agent (fromAiSdkTools)", () => {
  it("sends their schemas, validates and repairs against them, runs the library's own check, and runs them", async () => {
    server = await startLoopback(openAiChatRenderer(), [
      {
        calls: [
          { id: "call_1", name: "convert", args: { amount: "10", currency: "EUR" } },
          { id: "call_2", name: "convert", args: { amount: 5, currency: "eur" } },
          { id: "call_3", name: "search", args: { query: "refunds" } },
        ],
      },
      { text: "Done." },
    ]);
    const model = await resolveModel("openai:gpt-5-mini", { baseURL: `${server.url}/v1`, apiKey: "k" });
    const agent = new Agent({ name: "money", model, tools: fromAiSdkTools(aiTools) });
    const result = await agent.run("Convert and search.", { deps: { tenant: "t-1" } });
    expect(result.output).toBe("Done.");
    const sent = nth(server, 0).body.tools as { function: { name: string; parameters: { properties: object } } }[];
    expect(sent.map((t) => [t.function.name, Object.keys(t.function.parameters.properties)])).toEqual([
      ["convert", ["amount", "currency"]],
      ["search", ["query"]],
      ["wipe", ["workspace"]],
    ]);
    const read = toolMessages(1);
    expect(read.call_1).toBe('{"converted":20,"currency":"EUR"}');
    // JSON Schema let "eur" through; zod's refinement, run after it, did not.
    expect(read.call_2).toMatch(/^Invalid arguments for tool "convert"[\s\S]*ISO code in capitals/);
    expect(read.call_3).toBe("found: refunds (2 pages)");
    expect(seen).toEqual([{ toolCallId: "call_1", signal: true, context: { tenant: "t-1" } }]);
  });

  it("keeps their needsApproval: the run stops for a person, per call", async () => {
    server = await startLoopback(openAiChatRenderer(), [
      {
        calls: [
          { id: "call_s", name: "wipe", args: { workspace: "scratch" } },
          { id: "call_p", name: "wipe", args: { workspace: "prod" } },
        ],
      },
      { text: "Scratch wiped; prod kept." },
    ]);
    const model = await resolveModel("openai:gpt-5-mini", { baseURL: `${server.url}/v1`, apiKey: "k" });
    const agent = new Agent({ name: "ops", model, tools: fromAiSdkTools(aiTools) });
    const paused = await agent.run("Wipe scratch and prod.");
    expect(paused.status).toBe("interrupted");
    expect(paused.interruptions.map((i) => i.callId)).toEqual(["call_p"]);
    const state = paused.state;
    if (!state) throw new Error("an interrupted run has a state");
    state.reject("call_p", "Prod is never wiped.");
    const done = await agent.run(state);
    expect(done.output).toBe("Scratch wiped; prod kept.");
    expect(toolMessages(1)).toEqual({ call_s: "wiped scratch", call_p: "Not run: Prod is never wiped." });
  });

  it("refuses tools it cannot run, naming them", () => {
    const clientSide = { description: "Ask the user.", inputSchema: z.object({ question: z.string() }) };
    expect(() => fromAiSdkTools({ ask: clientSide })).toThrow(ToolDefinitionError);
    expect(() => fromAiSdkTools({ ask: clientSide })).toThrow(/AI SDK tool "ask" has no execute function/);
  });
});
