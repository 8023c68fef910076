// The agent both processes build: same name, same tools. Tools record each run in a file
// (one line per run) so the test can count side effects across processes.
import { appendFileSync } from "node:fs";
import { Agent, tool } from "toolwright";

const idSchema = {
  type: "object",
  properties: { id: { type: "string", description: "Order id, e.g. A-771." } },
  required: ["id"],
  additionalProperties: false,
};

/** Builds the support agent on `model`, recording tool runs under `dir`. */
export function supportAgent(model, dir) {
  const lookupOrder = tool({
    name: "lookupOrder",
    description: "Look up an order's status by id.",
    parameters: idSchema,
    readOnly: true,
    execute: ({ id }, ctx) => {
      appendFileSync(`${dir}/lookup.log`, `${ctx.callId}\n`);
      return { id, status: "processing" };
    },
  });
  const cancelOrder = tool({
    name: "cancelOrder",
    description: "Cancel an order that has not shipped yet.",
    parameters: idSchema,
    destructive: true,
    needsApproval: true,
    execute: ({ id }, ctx) => {
      appendFileSync(`${dir}/cancel.log`, `${ctx.callId} ${id} pid=${process.pid}\n`);
      return `Order ${id} cancelled.`;
    },
  });
  return new Agent({
    name: "support",
    model,
    instructions: "Answer order questions.",
    tools: [lookupOrder, cancelOrder],
    stateSecret: process.env.STATE_SECRET,
  });
}
