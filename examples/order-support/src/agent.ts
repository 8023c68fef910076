import { Agent, type Model } from "toolwright";
import { cancelOrder, lookupOrder, type OrderDeps } from "./orders.js";

/**
 * The support agent. Bare functions in `tools` get their schema from the compiler.
 * `cancelOrder` is `@destructive` and the agent approves destructive tools
 * (`approve: "destructive"`), so the run pauses before it runs, with no approval code in the tool.
 */
export function supportAgent(model: Model | string): Agent<OrderDeps> {
  return new Agent<OrderDeps>({
    name: "order-support",
    model,
    instructions: "Answer questions about orders. Look an order up before acting on it. Never guess a status.",
    tools: [lookupOrder, cancelOrder],
    maxTurns: 6,
    approve: "destructive",
  });
}
