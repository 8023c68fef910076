import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Agent, RunState } from "toolwright";
import { FakeModel } from "toolwright/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Charge, RefundDesk } from "../src/refund-desk.js";

const root = fileURLToPath(new URL("..", import.meta.url));
let out: string;
let desk: () => RefundDesk;
let refundsAgent: (model: FakeModel, desk: RefundDesk) => Agent;

beforeAll(async () => {
  // Built for real into a folder of this run's own (git-ignored, so "toolwright" still
  // resolves from the example), never into the shared dist/: two runs at once cannot collide.
  mkdirSync(`${root}.tmp`, { recursive: true });
  out = mkdtempSync(`${root}.tmp/test-build-`);
  execFileSync(`${root}node_modules/.bin/tspc`, ["-p", "tsconfig.build.json", "--outDir", out], {
    cwd: root,
    stdio: "pipe",
  });
  const { RefundDesk } = await import(`${out}/refund-desk.js`);
  ({ refundsAgent } = await import(`${out}/agent.js`));
  desk = () =>
    new RefundDesk(
      new Map<string, Charge>([
        ["ch_1", { id: "ch_1", customerId: "cus_42", amountCents: 2_000, refundedCents: 0 }],
        ["ch_2", { id: "ch_2", customerId: "cus_42", amountCents: 12_000, refundedCents: 0 }],
      ]),
    );
});

afterAll(() => {
  rmSync(out, { recursive: true, force: true });
});

describe("refunds desk (a class of tools)", () => {
  it("offers each @tool method with its compiled schema, and refunds a small amount without approval", async () => {
    const d = desk();
    const model = FakeModel.script([
      { toolCalls: [{ name: "listCharges", args: { customerId: "cus_42" } }] },
      { toolCalls: [{ name: "issueRefund", args: { chargeId: "ch_1", amountCents: 1_500 } }] },
      "Refunded 15.00.",
    ]);
    const result = await refundsAgent(model, d).run("Refund 15.00 of my last charge", { deps: {} });
    // Asked three times: listed the charges, refunded without a pause, then answered.
    expect(result.status).toBe("completed");
    expect(model.requests).toHaveLength(3);
    expect(model.requests[2]?.messages.at(-1)).toMatchObject({ role: "tool", toolName: "issueRefund", outcome: "ok" });
    expect(model.requests[0]?.tools.map((t) => t.name)).toEqual(["issueRefund", "listCharges"]);
    const issue = model.requests[0]?.tools.find((t) => t.name === "issueRefund");
    expect(issue?.parameters).toMatchObject({
      properties: { amountCents: { type: "number", minimum: 1 } },
      required: ["chargeId", "amountCents"],
    });
    expect(model.requests[1]?.messages.at(-1)?.content).toBe(
      '[{"id":"ch_1","refundableCents":2000},{"id":"ch_2","refundableCents":12000}]',
    );
    expect(result.output).toBe("Refunded 15.00.");
    expect(d.charges.get("ch_1")?.refundedCents).toBe(1_500);
  });

  it("pauses a large refund for approval; the predicate sees the validated amount", async () => {
    const d = desk();
    const model = FakeModel.script([
      { toolCalls: [{ name: "issueRefund", args: { chargeId: "ch_2", amountCents: "9000" } }] },
      "Refunded 90.00.",
    ]);
    const agent = refundsAgent(model, d);
    const paused = await agent.run("Refund 90.00 of ch_2");
    // "9000" was repaired to a number before the predicate and the person saw it.
    expect(paused.interruptions).toEqual([
      { callId: "call_1_0", toolName: "issueRefund", args: { chargeId: "ch_2", amountCents: 9_000 } },
    ]);
    expect(d.charges.get("ch_2")?.refundedCents).toBe(0);
    (paused.state as RunState).approve("call_1_0");
    await agent.run(paused.state as RunState);
    expect(d.charges.get("ch_2")?.refundedCents).toBe(9_000);
    expect([...d.issued.entries()]).toEqual([["call_1_0", "re_1"]]);
  });

  it("tells the model when a refund is larger than what is left", async () => {
    const model = FakeModel.script([
      { toolCalls: [{ name: "issueRefund", args: { chargeId: "ch_1", amountCents: 2_500 } }] },
      "Sorry.",
    ]);
    await refundsAgent(model, desk()).run("Refund 25.00 of ch_1");
    expect(model.requests[1]?.messages.at(-1)).toMatchObject({
      outcome: "tool_error",
      content: "Charge ch_1 has only 2000 cents left to refund.",
    });
  });
});
