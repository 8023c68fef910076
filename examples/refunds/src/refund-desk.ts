import { type ToolArgs, type ToolContext, ToolError, tool } from "toolwright";

/** A card charge that can be refunded. */
export interface Charge {
  id: string;
  customerId: string;
  amountCents: number;
  refundedCents: number;
}

/** Refunds above this amount wait for a person. */
export const APPROVAL_THRESHOLD_CENTS = 5_000;

const overThreshold = (_ctx: ToolContext, args: ToolArgs): boolean => args.amountCents > APPROVAL_THRESHOLD_CENTS;

/**
 * The refunds desk: each `@tool` method is a tool (its schema written by the compiler),
 * bound to this instance by `toolsOf(desk)`, so tools share the ledger without globals.
 */
export class RefundDesk {
  /** Refund ids by the call that issued them: the idempotency record. */
  readonly issued = new Map<string, string>();

  constructor(readonly charges: Map<string, Charge>) {}

  /**
   * List a customer's charges with what is left to refund on each.
   * @param customerId The customer id, e.g. "cus_42".
   */
  @tool({ readOnly: true })
  listCharges(customerId: string): Array<{ id: string; refundableCents: number }> {
    return [...this.charges.values()]
      .filter((c) => c.customerId === customerId)
      .map((c) => ({ id: c.id, refundableCents: c.amountCents - c.refundedCents }));
  }

  /**
   * Refund part or all of a charge. Refunds over 50.00 wait for a person's approval.
   * @param chargeId The charge to refund, e.g. "ch_1".
   * @param amountCents The amount to refund, in cents.
   */
  @tool({ idempotent: true, needsApproval: overThreshold })
  issueRefund(chargeId: string, /** @minimum 1 */ amountCents: number, ctx: ToolContext): string {
    // ctx.callId is stable across retries and resumes: a repeated call returns the first refund.
    const earlier = this.issued.get(ctx.callId);
    if (earlier) return earlier;
    const charge = this.charges.get(chargeId);
    if (!charge) throw new ToolError(`No charge "${chargeId}"; list the customer's charges first.`);
    const left = charge.amountCents - charge.refundedCents;
    if (amountCents > left) throw new ToolError(`Charge ${chargeId} has only ${left} cents left to refund.`);
    charge.refundedCents += amountCents;
    const refundId = `re_${this.issued.size + 1}`;
    this.issued.set(ctx.callId, refundId);
    return refundId;
  }
}
