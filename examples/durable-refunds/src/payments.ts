/** An order as the payment system knows it. */
export interface Order {
  readonly id: string;
  readonly paidCents: number;
  refundedCents: number;
}

/**
 * A payment provider's API as tools see it: refunds are deduplicated by idempotency key,
 * as real providers do, so a refund sent twice with one key is made once.
 */
export class Payments {
  /** Each refund made, in order: what the demo and the tests count. */
  readonly refunds: Array<{ readonly orderId: string; readonly amountCents: number; readonly key: string }> = [];
  readonly #byKey = new Map<string, string>();

  constructor(readonly orders: Map<string, Order>) {}

  /** Refunds `amountCents` of an order once per `idempotencyKey`; returns the refund's id. */
  refund(orderId: string, amountCents: number, idempotencyKey: string): string {
    const done = this.#byKey.get(idempotencyKey);
    if (done) return done;
    const order = this.orders.get(orderId);
    if (!order) throw new Error(`no order ${orderId}`);
    if (order.refundedCents + amountCents > order.paidCents)
      throw new Error(`order ${orderId} has only ${order.paidCents - order.refundedCents} cents left to refund`);
    order.refundedCents += amountCents;
    const id = `re_${this.refunds.length + 1}`;
    this.refunds.push({ orderId, amountCents, key: idempotencyKey });
    this.#byKey.set(idempotencyKey, id);
    return id;
  }
}
