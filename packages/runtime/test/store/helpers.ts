import { Agent, type Message, type ToolContext } from "../../src/index.js";
import { FakeModel, type ScriptedTurn } from "../../src/testing/index.js";
import { stringTool } from "../agent/helpers.js";

/**
 * A model that answers from the transcript alone, so any worker can play any turn of any
 * run: the first turn asks for `lookup` and `refund`, the next one answers.
 */
export function refundModel(): FakeModel {
  const turn = (request: { messages: readonly Message[] }): string | ScriptedTurn => {
    const results = request.messages.filter((m) => m.role === "tool");
    if (results.length === 0) {
      const n = request.messages.length;
      return {
        toolCalls: [
          { id: `lookup_${n}`, name: "lookup", args: { id: "A-1" } },
          { id: `refund_${n}`, name: "refund", args: { id: "A-1" } },
        ],
      };
    }
    return `Done: ${results.map((m) => (m.role === "tool" ? `${m.toolName}=${m.outcome}` : "")).join(", ")}`;
  };
  return FakeModel.script(Array.from({ length: 10_000 }, () => turn));
}

/** What the tools of {@link refundAgent} saw. */
export interface Effects {
  readonly lookups: string[];
  readonly refunds: Array<{ readonly id: string; readonly key: string | undefined }>;
  readonly sessions: Array<string | undefined>;
}

/**
 * An agent with a read-only `lookup` and a `refund` that needs approval; `during` runs
 * inside the refund's body (to kill the worker mid-call in tests).
 */
export function refundAgent(
  options: {
    readonly during?: (ctx: ToolContext) => Promise<void> | void;
    readonly approval?: boolean;
    readonly idempotent?: boolean;
  } = {},
): { agent: Agent; effects: Effects } {
  const effects: Effects = { lookups: [], refunds: [], sessions: [] };
  const lookup = stringTool(
    "lookup",
    ({ id }, ctx) => {
      effects.lookups.push(id);
      effects.sessions.push(ctx.sessionId);
      return { id, paid: 120 };
    },
    { readOnly: true },
  );
  const refund = stringTool(
    "refund",
    async ({ id }, ctx) => {
      effects.refunds.push({ id, key: ctx.idempotencyKey });
      await options.during?.(ctx);
      return `refunded ${id}`;
    },
    { needsApproval: options.approval ?? true, idempotent: options.idempotent ?? false },
  );
  return { agent: new Agent({ name: "refunds", model: refundModel(), tools: [lookup, refund] }), effects };
}

/** A promise that never settles: a tool body stuck when its worker dies. */
export function forever(): Promise<never> {
  return new Promise<never>(() => {});
}
