import { Agent, OpenAIProvider, Runner } from "@openai/agents";
import { openAiAgentsTools } from "toolwright/openai-agents";
import { describe, expect, it } from "vitest";
import { shop, useAdapterTest } from "./compiled.js";

// The OpenAI Agents SDK's own runner against a loopback Chat Completions server, with tools
// the real transformer compiled, handed over by toolwright/openai-agents.

const adapter = useAdapterTest();
const { toolMessages } = adapter;

async function runnerFor(script: Parameters<typeof adapter.start>[0]) {
  const url = await adapter.start(script);
  const modelProvider = new OpenAIProvider({ apiKey: "k", baseURL: `${url}/v1`, useResponses: false });
  return new Runner({ modelProvider, tracingDisabled: true });
}

describe("toolwright tools in the OpenAI Agents SDK's runner (toolwright/openai-agents)", () => {
  it("sends strict schemas, drops strict mode's nulls, repairs, injects the run context, and answers with toolwright's result", async () => {
    const deps = shop();
    const runner = await runnerFor([
      {
        calls: [
          // Strict mode makes the model send null for an optional key it leaves out.
          { id: "call_f", name: "getForecast", args: { city: "Paris", days: "2", units: null } },
          { id: "call_l", name: "lookupOrder", args: { orderId: "A-1" } },
        ],
      },
      { text: "Two days of sun; your order is open." },
    ]);
    const agent = new Agent({
      name: "shop",
      instructions: "Help.",
      model: "test-model",
      tools: openAiAgentsTools([adapter.tools.forecast, adapter.tools.lookup]),
    });
    const result = await runner.run(agent, "Weather in Paris, and my order A-1?", { context: deps });
    expect(result.finalOutput).toBe("Two days of sun; your order is open.");
    const sent = adapter.request(0).body.tools as {
      function: { name: string; strict: boolean; parameters: { required: string[] } };
    }[];
    expect(sent.map((t) => [t.function.name, t.function.strict, t.function.parameters.required])).toEqual([
      ["getForecast", true, ["city", "days", "units"]],
      ["lookupOrder", true, ["orderId"]],
    ]);
    expect(toolMessages(1)).toEqual({
      call_f: '{"city":"Paris","days":2,"units":"metric","highs":[18,19]}',
      call_l: '{"orderId":"A-1","totalCents":12000,"refunded":false}',
    });
    expect(deps.calls).toEqual(["lookupOrder call_l"]);
  });

  it("sends wrong arguments, thrown ToolErrors, frozen-argument failures and timeouts back with toolwright's messages", async () => {
    const runner = await runnerFor([
      {
        calls: [
          { id: "call_bad", name: "getForecast", args: { city: "Paris", days: 9 } },
          { id: "call_missing", name: "lookupOrder", args: { orderId: "Z-9" } },
          { id: "call_tag", name: "tagItems", args: { items: ["a"] } },
          { id: "call_slow", name: "waitForReport", args: { name: "Q2" } },
          { id: "call_book", name: "bookMeeting", args: { title: "Review", at: "2026-05-04T09:30:00Z" } },
        ],
      },
      { text: "Done." },
    ]);
    const agent = new Agent({
      name: "shop",
      instructions: "Help.",
      model: "test-model",
      tools: openAiAgentsTools([
        adapter.tools.forecast,
        adapter.tools.lookup,
        adapter.tools.tag,
        adapter.tools.report,
        adapter.tools.book,
      ]),
    });
    const result = await runner.run(agent, "Do it all.", { context: shop() });
    expect(result.finalOutput).toBe("Done.");
    const read = toolMessages(1);
    expect(read.call_bad).toMatch(/^Invalid arguments for tool "getForecast":\n- \/days: /);
    expect(read.call_missing).toBe('No order "Z-9". Ask the user for the id on their receipt.');
    expect(read.call_tag).toMatch(/^tool "tagItems" threw: .*not extensible/);
    expect(read.call_slow).toBe("waitForReport did not finish within 50 ms and was stopped.");
    // The date-time arrived as a Date.
    expect(read.call_book).toBe("Review on 2026-05-04 (Date)");
  });

  it("maps approvals to needsApproval: the run stops with interruptions, approve and reject resume it", async () => {
    const deps = shop();
    const runner = await runnerFor([
      {
        calls: [
          { id: "call_big", name: "refundOrder", args: { orderId: "A-1", amountCents: 9000 } },
          { id: "call_small", name: "refundOrder", args: { orderId: "B-2", amountCents: 100 } },
          { id: "call_close", name: "closeAccount", args: { accountId: "acct-7" } },
        ],
      },
      { text: "Refunded both; the account stays open." },
    ]);
    const agent = new Agent({
      name: "shop",
      instructions: "Help.",
      model: "test-model",
      tools: openAiAgentsTools([adapter.tools.refund, adapter.tools.close]),
    });
    const first = await runner.run(agent, "Refund A-1 and B-2, close my account.", { context: deps });
    expect(first.interruptions.map((i) => i.rawItem.type === "function_call" && i.rawItem.callId)).toEqual([
      "call_big",
      "call_close",
    ]);
    expect(deps.orders.get("A-1")?.refunded).toBe(false);
    for (const interruption of first.interruptions) {
      if (interruption.name === "refundOrder") first.state.approve(interruption);
      else first.state.reject(interruption);
    }
    const second = await runner.run(agent, first.state);
    expect(second.finalOutput).toBe("Refunded both; the account stays open.");
    expect(deps.calls.sort()).toEqual(["refundOrder call_big", "refundOrder call_small"]);
    expect(deps.orders.get("A-1")?.refunded).toBe(true);
  });
});
