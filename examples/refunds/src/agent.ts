import { Agent, type Model, toolsOf } from "toolwright";
import type { RefundDesk } from "./refund-desk.js";

/** A refunds agent whose tools are the `@tool` methods of one desk. */
export function refundsAgent(model: Model | string, desk: RefundDesk): Agent {
  return new Agent({
    name: "refunds",
    model,
    instructions: "Handle refund requests. Check the charges before refunding; never refund more than was paid.",
    tools: toolsOf(desk),
  });
}
