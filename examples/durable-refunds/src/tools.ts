import { type ToolContext, ToolError, tool } from "toolwright";
import type { Order, Payments } from "./payments.js";

/** What the tools need from the server. */
export interface Deps {
  readonly payments: Payments;
}

/**
 * Look an order up: what was paid and what was refunded already.
 * @param orderId The order's id, e.g. "A-771".
 * @readOnly
 */
function lookupOrder(orderId: string, ctx: ToolContext<Deps>): Order {
  const order = ctx.deps.payments.orders.get(orderId);
  if (!order) throw new ToolError(`There is no order ${orderId}. Ask the customer for the id on their receipt.`);
  return order;
}

/**
 * Refund part or all of what was paid for an order. A person approves every refund.
 * @param orderId The order's id, e.g. "A-771".
 * @param amountCents How much to refund, in cents.
 * @idempotent
 */
function refundOrder(orderId: string, amountCents: number, ctx: ToolContext<Deps>): string {
  // The key is stable across retries, resumes and workers: the provider refunds once per key.
  const id = ctx.deps.payments.refund(orderId, amountCents, ctx.idempotencyKey ?? `${ctx.runId}:${ctx.callId}`);
  return `Refund ${id}: ${amountCents} cents on order ${orderId}.`;
}

export const lookup = tool(lookupOrder);
export const refund = tool(refundOrder, { needsApproval: true, destructive: true });
