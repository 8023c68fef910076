import { Agent, type RunResult, ToolError, tool } from "toolwright";
import { FakeModel } from "toolwright/testing";

/** A short pause, so calls and turns have durations a timeline can show. */
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A support agent whose recorded run has one of each thing a trace shows: a plain call, a
 * call the engine retried, arguments the loop repaired, a call that waited for a person
 * and was approved, a failing call, and a final answer. Run for real (the scripted model
 * stands in for a provider): the paused run, its saved state before approval, the finished run.
 */
export async function recordRun(): Promise<{ paused: RunResult; pausedState: string; finished: RunResult }> {
  let flaky = 0;
  const lookup = tool({
    name: "lookup_order",
    description: "Look an order up by its id.",
    parameters: {
      type: "object",
      properties: { id: { type: "string" } },
      required: ["id"],
      additionalProperties: false,
    },
    readOnly: true,
    execute: async (args) => {
      await pause(15);
      if (args.id === "A-404") throw new ToolError("no order A-404");
      return { id: args.id, status: "shipped" };
    },
  });
  const stock = tool({
    name: "check_stock",
    description: "How many units of an item are in stock.",
    parameters: {
      type: "object",
      properties: { sku: { type: "string" }, qty: { type: "number" } },
      required: ["sku", "qty"],
      additionalProperties: false,
    },
    readOnly: true,
    execute: async (args) => {
      await pause(5);
      flaky += 1;
      if (flaky === 1) throw new ToolError("warehouse busy", { retryable: true });
      return `${String(args.sku)}: ${Number(args.qty) + 10} in stock`;
    },
  });
  const cancel = tool({
    name: "cancel_order",
    description: "Cancel an order.",
    parameters: {
      type: "object",
      properties: { id: { type: "string" } },
      required: ["id"],
      additionalProperties: false,
    },
    needsApproval: true,
    execute: async (args) => {
      await pause(10);
      return `cancelled ${String(args.id)}`;
    },
  });
  const model = FakeModel.script([
    {
      text: "Looking both up.",
      toolCalls: [
        { name: "lookup_order", args: { id: "A-771" } },
        { name: "check_stock", args: '{"sku": "MUG-1", "qty": "2"}' },
      ],
      usage: { inputTokens: 420, outputTokens: 38 },
    },
    {
      text: "Cancelling.",
      toolCalls: [{ name: "cancel_order", args: { id: "A-771" } }],
      usage: { inputTokens: 560, outputTokens: 22 },
    },
    { toolCalls: [{ name: "lookup_order", args: { id: "A-404" } }], usage: { inputTokens: 640, outputTokens: 18 } },
    {
      text: "Order A-771 shipped and is now cancelled; A-404 does not exist.",
      usage: { inputTokens: 700, outputTokens: 25, cachedInputTokens: 500 },
    },
  ]);
  const agent = new Agent({
    name: "support",
    model,
    tools: [lookup, stock, cancel],
    toolRetry: { maxAttempts: 3, initialBackoffMs: 1 },
    prices: { "fake:scripted": { inputPerMTok: 2, outputPerMTok: 8 } },
  });
  const paused = await agent.run("Where is order A-771? Cancel it. Also A-404.");
  const state = paused.state;
  if (!state) throw new Error("the recorded run was expected to pause for approval of cancel_order");
  const pausedState = state.toString();
  state.approve(paused.interruptions[0]?.callId ?? "");
  const finished = await agent.run(state);
  return { paused, pausedState, finished };
}
