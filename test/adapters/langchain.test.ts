import { tool as langChainTool } from "@langchain/core/tools";
import { Command, MemorySaver } from "@langchain/langgraph";
import { ChatOpenAI } from "@langchain/openai";
import { createAgent, type HITLRequest, humanInTheLoopMiddleware, type Interrupt } from "langchain";
import { Agent, ToolDefinitionError } from "toolwright";
import { fromLangChainTools, interruptOn, langChainTools } from "toolwright/langchain";
import { resolveModel } from "toolwright/providers";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { shop, useAdapterTest } from "./compiled.js";

// LangChain.js's own agent loop (createAgent, its ToolNode and middleware) against a
// loopback Chat Completions server, with tools the real transformer compiled; and LangChain
// tools inside a toolwright Agent.

const adapter = useAdapterTest();
const { toolMessages } = adapter;

async function chatModel(script: Parameters<typeof adapter.start>[0]) {
  const url = await adapter.start(script);
  return new ChatOpenAI({ model: "test-model", apiKey: "k", configuration: { baseURL: `${url}/v1` }, maxRetries: 0 });
}

const ask = (content: string) => ({ messages: [{ role: "user" as const, content }] });

describe("toolwright tools in LangChain's agent loop (toolwright/langchain)", () => {
  it("repairs before LangChain's own check, injects the context, and answers with toolwright's result", async () => {
    const deps = shop();
    const model = await chatModel([
      {
        calls: [
          { id: "call_f", name: "getForecast", args: { city: "Paris", days: "2" } },
          { id: "call_l", name: "lookupOrder", args: { orderId: "A-1" } },
          { id: "call_b", name: "bookMeeting", args: { title: "Review", at: "2026-05-04T09:30:00Z" } },
        ],
      },
      { text: "Done." },
    ]);
    const agent = createAgent({
      model,
      tools: langChainTools([adapter.tools.forecast, adapter.tools.lookup, adapter.tools.book]),
    });
    const result = await agent.invoke(ask("Weather, order, meeting."), { context: deps });
    expect(result.messages.at(-1)?.content).toBe("Done.");
    const sent = adapter.request(0).body.tools as { function: { name: string; parameters: unknown } }[];
    expect(sent[0]?.function.parameters).toMatchObject(adapter.tools.forecast.parameters);
    expect(toolMessages(1)).toEqual({
      // "2" read as 2: without toolwright's check first, LangChain's would have refused it.
      call_f: '{"city":"Paris","days":2,"units":"metric","highs":[18,19]}',
      call_l: '{"orderId":"A-1","totalCents":12000,"refunded":false}',
      call_b: "Review on 2026-05-04 (Date)",
    });
    expect(deps.calls).toEqual(["lookupOrder call_l"]);
  });

  it("sends wrong arguments, ToolErrors, frozen-argument failures and timeouts back with toolwright's messages", async () => {
    const model = await chatModel([
      {
        calls: [
          { id: "call_bad", name: "getForecast", args: { city: "Paris", days: 9 } },
          { id: "call_missing", name: "lookupOrder", args: { orderId: "Z-9" } },
          { id: "call_tag", name: "tagItems", args: { items: ["a"] } },
          { id: "call_slow", name: "waitForReport", args: { name: "Q2" } },
        ],
      },
      { text: "Done." },
    ]);
    const agent = createAgent({
      model,
      tools: langChainTools([adapter.tools.forecast, adapter.tools.lookup, adapter.tools.tag, adapter.tools.report]),
    });
    await agent.invoke(ask("Do it all."), { context: shop() });
    const read = toolMessages(1);
    expect(read.call_bad).toMatch(/^Invalid arguments for tool "getForecast":\n- \/days: /);
    expect(read.call_missing).toBe('No order "Z-9". Ask the user for the id on their receipt.');
    expect(read.call_tag).toMatch(/^tool "tagItems" threw: .*not extensible/);
    expect(read.call_slow).toBe("waitForReport did not finish within 50 ms and was stopped.");
  });

  it("refuses a tool that needs approval unless LangChain's human-in-the-loop middleware asks for it", async () => {
    expect(() => langChainTools([adapter.tools.refund])).toThrow(ToolDefinitionError);
    expect(() => langChainTools([adapter.tools.close])).toThrow(/humanInTheLoopMiddleware/);
    expect(interruptOn([adapter.tools.forecast, adapter.tools.refund, adapter.tools.close])).toEqual({
      refundOrder: {
        allowedDecisions: ["approve", "reject"],
        description: expect.stringContaining("Refund an order"),
        when: expect.any(Function),
      },
      closeAccount: {
        allowedDecisions: ["approve", "reject"],
        description: expect.stringContaining("Close an account"),
        when: expect.any(Function),
      },
    });

    const deps = shop();
    const model = await chatModel([
      {
        calls: [
          // Over 50.00 ("9000", read as 9000): the predicate asks a person; under it, no one.
          { id: "call_big", name: "refundOrder", args: { orderId: "A-1", amountCents: "9000" } },
          { id: "call_small", name: "refundOrder", args: { orderId: "B-2", amountCents: 100 } },
          { id: "call_close", name: "closeAccount", args: { accountId: "acct-7" } },
        ],
      },
      { text: "Refunded both; the account is closed." },
    ]);
    const list = [adapter.tools.refund, adapter.tools.close];
    const agent = createAgent({
      model,
      tools: langChainTools(list, { approvals: "middleware", deps }),
      middleware: [humanInTheLoopMiddleware({ interruptOn: interruptOn(list, { deps }) })],
      checkpointer: new MemorySaver(),
    });
    const thread = { configurable: { thread_id: "t-1" } };
    const paused = await agent.invoke(ask("Refund A-1 and close my account."), thread);
    const request = (paused.__interrupt__?.[0] as Interrupt<HITLRequest> | undefined)?.value;
    expect(request?.actionRequests.map((a) => [a.name, a.args])).toEqual([
      ["refundOrder", { orderId: "A-1", amountCents: "9000" }],
      ["closeAccount", { accountId: "acct-7" }],
    ]);
    expect(deps.calls).toEqual([]);
    const done = await agent.invoke(
      new Command({ resume: { decisions: [{ type: "approve" }, { type: "approve" }] } }),
      thread,
    );
    expect(done.messages.at(-1)?.content).toBe("Refunded both; the account is closed.");
    expect(deps.calls.sort()).toEqual(["closeAccount call_close", "refundOrder call_big", "refundOrder call_small"]);
    expect(deps.orders.get("A-1")?.refunded).toBe(true);
  });
});

describe("LangChain tools inside a toolwright Agent (fromLangChainTools)", () => {
  it("sends their schemas, validates and repairs against them, runs their own check, and runs them", async () => {
    const seen: unknown[] = [];
    const convert = langChainTool(
      async ({ amount, currency }, config) => {
        seen.push({ amount, currency, signal: config?.signal instanceof AbortSignal });
        return `${amount * 2} ${currency}`;
      },
      {
        name: "convert_currency",
        description: "Convert an amount of money.",
        schema: z.object({
          amount: z.number().describe("How much."),
          currency: z.string().refine((c) => c === c.toUpperCase(), "an ISO code in capitals, e.g. EUR"),
        }),
      },
    );
    const lookup = langChainTool(async ({ query }) => ({ hits: [query] }), {
      name: "search",
      description: "Search the docs.",
      schema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
    });
    const url = await adapter.start([
      {
        calls: [
          { id: "call_1", name: "convert_currency", args: { amount: "10", currency: "EUR" } },
          { id: "call_2", name: "convert_currency", args: { amount: 5, currency: "eur" } },
          { id: "call_3", name: "search", args: { query: "refunds" } },
        ],
      },
      { text: "Done." },
    ]);
    const model = await resolveModel("openai:gpt-5-mini", { baseURL: `${url}/v1`, apiKey: "k", strict: false });
    const agent = new Agent({ name: "money", model, tools: fromLangChainTools([convert, lookup]) });
    const result = await agent.run("Convert and search.");
    expect(result.output).toBe("Done.");
    const sent = adapter.request(0).body.tools as { function: { name: string; parameters: { properties: object } } }[];
    expect(sent.map((t) => [t.function.name, Object.keys(t.function.parameters.properties)])).toEqual([
      ["convert_currency", ["amount", "currency"]],
      ["search", ["query"]],
    ]);
    const read = toolMessages(1);
    expect(read.call_1).toBe("20 EUR");
    // toolwright's check passed; the zod refinement JSON Schema cannot express refused it.
    expect(read.call_2).toMatch(/^Invalid arguments for tool "convert_currency"[\s\S]*ISO code in capitals/);
    expect(read.call_3).toBe('{"hits":["refunds"]}');
    expect(seen).toEqual([{ amount: 10, currency: "EUR", signal: true }]);
  });
});
