import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText, type ModelMessage, stepCountIs, streamText } from "ai";
import { ToolArgumentError } from "toolwright";
import { aiSdkTools, repairToolCall } from "toolwright/ai-sdk";
import { describe, expect, it } from "vitest";
import type { ScriptStep } from "../../packages/runtime/test/providers/servers/loopback.js";
import { shop, useAdapterTest } from "./compiled.js";

// The AI SDK's own loop (generateText, streamText) against a loopback Chat Completions
// server, with tools the real transformer compiled, handed over by toolwright/ai-sdk.

const adapter = useAdapterTest();
const { toolMessages } = adapter;

async function modelFor(script: readonly ScriptStep[]) {
  const url = await adapter.start(script);
  return createOpenAICompatible({ name: "loopback", baseURL: `${url}/v1`, apiKey: "k" })("test-model");
}

describe("toolwright tools in the AI SDK's loop (toolwright/ai-sdk)", () => {
  it("sends the compiled schemas, repairs and validates the arguments, injects the context and returns the result", async () => {
    const deps = shop();
    const model = await modelFor([
      {
        calls: [
          { id: "call_f", name: "getForecast", args: { city: "Paris", days: "2" } },
          { id: "call_l", name: "lookupOrder", args: { orderId: "A-1" } },
        ],
      },
      { text: "Two days of sun; your order is open." },
    ]);
    const result = await generateText({
      model,
      prompt: "Weather in Paris, and my order A-1?",
      tools: aiSdkTools([adapter.tools.forecast, adapter.tools.lookup], { deps }),
      stopWhen: stepCountIs(3),
    });
    expect(result.text).toBe("Two days of sun; your order is open.");
    // The schema the model saw is the one the compiler derived from the signature and TSDoc.
    const sent = adapter.request(0).body.tools as { function: { name: string; parameters: unknown } }[];
    expect(sent.map((t) => t.function.name)).toEqual(["getForecast", "lookupOrder"]);
    expect(sent[0]?.function.parameters).toMatchObject(adapter.tools.forecast.parameters);
    // "2" was read as 2 (a repair), defaults filled by the function; ctx.deps held the shop.
    expect(result.steps[0]?.toolResults.map((r) => [r.toolCallId, r.output])).toEqual([
      ["call_f", { city: "Paris", days: 2, units: "metric", highs: [18, 19] }],
      ["call_l", { orderId: "A-1", totalCents: 12_000, refunded: false }],
    ]);
    expect(deps.calls).toEqual(["lookupOrder call_l"]);
    // The model read toolwright's serialization of each result.
    expect(toolMessages(1)).toEqual({
      call_f: '{"city":"Paris","days":2,"units":"metric","highs":[18,19]}',
      call_l: '{"orderId":"A-1","totalCents":12000,"refunded":false}',
    });
  });

  it("sends wrong arguments back as toolwright's feedback, so the model's next try runs", async () => {
    const model = await modelFor([
      { calls: [{ id: "call_1", name: "getForecast", args: { city: "Paris", days: 9, when: "now" } }] },
      { calls: [{ id: "call_2", name: "getForecast", args: { city: "Paris", days: 7 } }] },
      { text: "A week of weather." },
    ]);
    const result = await generateText({
      model,
      prompt: "Weather in Paris for 9 days?",
      tools: aiSdkTools([adapter.tools.forecast]),
      stopWhen: stepCountIs(4),
    });
    expect(result.text).toBe("A week of weather.");
    const [failed] = result.steps[0]?.content.filter((part) => part.type === "tool-error") ?? [];
    const error = failed?.error;
    expect(error).toBeInstanceOf(ToolArgumentError);
    expect(error instanceof ToolArgumentError && error.issues.map((i) => i.path)).toEqual(["/when", "/days"]);
    const feedback = toolMessages(1).call_1;
    expect(feedback).toContain('Invalid arguments for tool "getForecast"');
    expect(feedback).toContain('unexpected key "when"');
    expect(feedback).toContain("/days");
    expect(result.steps[1]?.toolResults[0]?.output).toMatchObject({ days: 7 });
  });

  it("repairs broken JSON through experimental_repairToolCall, and refuses it without", async () => {
    const script: ScriptStep[] = [
      {
        calls: [{ id: "call_1", name: "getForecast", args: {}, rawArgs: '```json\n{"city": "Lyon", "days": 1,}\n```' }],
      },
      { text: "Done." },
    ];
    const repaired = await generateText({
      model: await modelFor(script),
      prompt: "Weather in Lyon?",
      tools: aiSdkTools([adapter.tools.forecast]),
      experimental_repairToolCall: repairToolCall,
      stopWhen: stepCountIs(2),
    });
    expect(repaired.steps[0]?.toolResults[0]?.output).toMatchObject({ city: "Lyon", days: 1 });
    const unrepaired = await generateText({
      model: await modelFor(script),
      prompt: "Weather in Lyon?",
      tools: aiSdkTools([adapter.tools.forecast]),
      stopWhen: stepCountIs(2),
    });
    expect(unrepaired.steps[0]?.toolResults).toEqual([]);
    expect(unrepaired.steps[0]?.content.some((part) => part.type === "tool-error")).toBe(true);
  });

  it("hands the function deep-frozen arguments, a Date for a date-time, and stops a call at its time limit", async () => {
    const model = await modelFor([
      {
        calls: [
          { id: "call_t", name: "tagItems", args: { items: ["a"] } },
          { id: "call_b", name: "bookMeeting", args: { title: "Review", at: "2026-05-04T09:30:00Z" } },
          { id: "call_r", name: "waitForReport", args: { name: "Q2" } },
        ],
      },
      { text: "Done." },
    ]);
    const result = await generateText({
      model,
      prompt: "Tag, book, report.",
      tools: aiSdkTools([adapter.tools.tag, adapter.tools.book, adapter.tools.report]),
      stopWhen: stepCountIs(2),
    });
    const read = toolMessages(1);
    // ai 6 sends the error's message, ai 7 its name and message.
    expect(read.call_t).toMatch(/tool "tagItems" threw: .*not extensible/);
    expect(read.call_b).toBe("Review on 2026-05-04 (Date)");
    expect(read.call_r).toMatch(/tool "waitForReport" did not finish within 50 ms/);
    expect(result.text).toBe("Done.");
  });

  it("maps approvals to the SDK's approval flow, decided on the validated arguments", async () => {
    const deps = shop();
    const model = await modelFor([
      {
        calls: [
          { id: "call_big", name: "refundOrder", args: { orderId: "A-1", amountCents: "9000" } },
          { id: "call_small", name: "refundOrder", args: { orderId: "B-2", amountCents: 100 } },
          { id: "call_close", name: "closeAccount", args: { accountId: "acct-7" } },
        ],
      },
      { text: "Refunded both; the account stays open." },
    ]);
    const set = aiSdkTools([adapter.tools.refund, adapter.tools.close], { deps });
    const options = { model, tools: set, stopWhen: stepCountIs(3) };
    const first = await generateText({ ...options, prompt: "Refund A-1 and B-2, close my account." });
    // The small refund ran; the big one ("9000", read as 9000 > 5000) and the flagged tool wait for a person.
    const requests = first.content.filter((part) => part.type === "tool-approval-request");
    expect(requests.map((r) => r.toolCall.toolCallId)).toEqual(["call_big", "call_close"]);
    expect(deps.calls).toEqual(["refundOrder call_small"]);
    expect(deps.orders.get("A-1")?.refunded).toBe(false);

    const decisions: ModelMessage = {
      role: "tool",
      content: requests.map((r) => ({
        type: "tool-approval-response",
        approvalId: r.approvalId,
        approved: r.toolCall.toolName === "refundOrder",
        ...(r.toolCall.toolName === "refundOrder" ? {} : { reason: "Accounts are closed by phone." }),
      })),
    };
    const second = await generateText({
      ...options,
      messages: [
        { role: "user", content: "Refund A-1 and B-2, close my account." },
        ...first.response.messages,
        decisions,
      ],
    });
    expect(second.text).toBe("Refunded both; the account stays open.");
    expect(deps.calls).toEqual(["refundOrder call_small", "refundOrder call_big"]);
    expect(deps.orders.get("A-1")?.refunded).toBe(true);
  });

  it("runs in streamText's loop too", async () => {
    const model = await modelFor([
      { calls: [{ id: "call_1", name: "getForecast", args: { city: "Oslo", units: "imperial" } }] },
      { text: "Cold." },
    ]);
    const stream = streamText({
      model,
      prompt: "Weather in Oslo?",
      tools: aiSdkTools([adapter.tools.forecast]),
      stopWhen: stepCountIs(2),
    });
    expect(await stream.text).toBe("Cold.");
    expect((await stream.steps)[0]?.toolResults[0]?.output).toEqual({
      city: "Oslo",
      days: 1,
      units: "imperial",
      highs: [64],
    });
  });
});
