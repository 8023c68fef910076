import type { Message } from "toolwright";
import { FakeModel } from "toolwright/testing";

/**
 * A stand-in for a real model, so the example runs without an API key: it reads the
 * transcript (not a counter), so any worker can play any turn of any run. It looks the
 * order up, refunds 500 cents, then answers.
 */
export function scriptedModel(): FakeModel {
  const turn = (request: { readonly messages: readonly Message[] }) => {
    const last = request.messages.at(-1);
    const user = request.messages.findLast((m) => m.role === "user");
    const orderId = /[A-Z]-\d+/.exec(user?.role === "user" ? user.content : "")?.[0] ?? "A-771";
    if (last?.role === "user")
      return { toolCalls: [{ id: `lookup_${request.messages.length}`, name: "lookupOrder", args: { orderId } }] };
    if (last?.role === "tool" && last.toolName === "lookupOrder" && last.outcome === "ok")
      return {
        toolCalls: [
          { id: `refund_${request.messages.length}`, name: "refundOrder", args: { orderId, amountCents: 500 } },
        ],
      };
    return last?.role === "tool" ? `Done: ${last.content}` : "How can I help?";
  };
  return FakeModel.script(Array.from({ length: 100_000 }, () => turn));
}
