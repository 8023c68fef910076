import { type ToolContext, ToolError } from "toolwright";

/** One order as the store keeps it. */
export interface Order {
  id: string;
  status: "processing" | "shipped" | "cancelled";
  items: string[];
}

/** What the tools need at run time: passed as `agent.run(input, { deps })`. */
export interface OrderDeps {
  readonly orders: Map<string, Order>;
}

/**
 * Look up an order by its id and return its status and items.
 * @param orderId The order id, e.g. "A-771".
 * @readOnly
 */
export function lookupOrder(orderId: string, ctx: ToolContext<OrderDeps>): Order {
  const order = ctx.deps.orders.get(orderId);
  if (!order) throw new ToolError(`No order "${orderId}". Order ids look like "A-771"; ask the customer to check.`);
  return order;
}

/**
 * Cancel an order that has not shipped yet. A person approves every cancellation.
 * @param orderId The order id, e.g. "A-771".
 * @param reason Why the customer wants to cancel, in their words.
 * @destructive
 */
export function cancelOrder(orderId: string, reason: string, ctx: ToolContext<OrderDeps>): string {
  const order = ctx.deps.orders.get(orderId);
  if (!order) throw new ToolError(`No order "${orderId}".`);
  if (order.status !== "processing")
    throw new ToolError(`Order ${orderId} is ${order.status} and can no longer be cancelled.`);
  order.status = "cancelled";
  ctx.log.info("cancelled", { orderId, reason, callId: ctx.callId });
  return `Order ${orderId} is cancelled.`;
}
