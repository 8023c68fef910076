import { Agent, type Model } from "toolwright";
import { lookup, refund } from "./tools.js";

/** The refunds agent; workers and the server make it with the same name and tools. */
export function refundsAgent(model: Model | string): Agent {
  return new Agent({
    name: "durable-refunds",
    model,
    instructions: "Handle refund requests. Look the order up first; never refund more than was paid.",
    tools: [lookup, refund],
  });
}
