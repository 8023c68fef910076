import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Agent, RunState } from "toolwright";
import { FakeModel } from "toolwright/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Order, OrderDeps } from "../src/orders.js";

const root = fileURLToPath(new URL("..", import.meta.url));
let out: string;
let supportAgent: (model: FakeModel) => Agent<OrderDeps>;

beforeAll(async () => {
  // Built for real into a folder of this run's own (git-ignored, so "toolwright" still
  // resolves from the example), never into the shared dist/: two runs at once cannot collide.
  mkdirSync(`${root}.tmp`, { recursive: true });
  out = mkdtempSync(`${root}.tmp/test-build-`);
  execFileSync(`${root}node_modules/.bin/tspc`, ["-p", "tsconfig.build.json", "--outDir", out], {
    cwd: root,
    stdio: "pipe",
  });
  ({ supportAgent } = await import(`${out}/agent.js`));
});

afterAll(() => {
  rmSync(out, { recursive: true, force: true });
});

const store = (): OrderDeps => ({
  orders: new Map<string, Order>([["A-771", { id: "A-771", status: "processing", items: ["kettle"] }]]),
});

describe("order support", () => {
  it("looks up, rejects a wrong key by name, and cancels only after a person approves", async () => {
    const model = FakeModel.script([
      { toolCalls: [{ name: "lookupOrder", args: { orderId: "A-771" } }] },
      { toolCalls: [{ name: "cancelOrder", args: { order: "A-771", reason: "changed my mind" } }] },
      { toolCalls: [{ name: "cancelOrder", args: { orderId: "A-771", reason: "changed my mind" } }] },
      "Your order A-771 is cancelled.",
    ]);
    const deps = store();
    const agent = supportAgent(model);

    // The compiler wrote the schemas: no ToolContext parameter, TSDoc descriptions, flags from tags.
    const cancel = agent.tools.get("cancelOrder");
    expect(cancel?.parameters).toMatchObject({ required: ["orderId", "reason"], additionalProperties: false });
    expect(cancel?.flags).toEqual({ destructive: true });
    expect(agent.tools.get("lookupOrder")?.flags).toEqual({ readOnly: true });

    const paused = await agent.run("Please cancel A-771, I changed my mind.", { deps });
    const wrongKey = model.requests[2]?.messages.at(-1);
    expect(wrongKey).toMatchObject({ role: "tool", toolName: "cancelOrder", outcome: "invalid_arguments" });
    expect(wrongKey?.content).toMatch(/"order"/);
    expect(wrongKey?.content).toMatch(/"orderId"/);

    expect(paused.interruptions).toEqual([
      {
        callId: "call_3_0",
        toolName: "cancelOrder",
        args: { orderId: "A-771", reason: "changed my mind" },
        reason: "cancelOrder is destructive and this agent approves destructive tools.",
      },
    ]);
    expect(deps.orders.get("A-771")?.status).toBe("processing");

    (paused.state as RunState).approve("call_3_0");
    const done = await agent.run(paused.state as RunState, { deps });
    expect(done.output).toBe("Your order A-771 is cancelled.");
    expect(deps.orders.get("A-771")?.status).toBe("cancelled");
    expect(done.steps.at(-2)?.calls[0]?.logs?.[0]).toMatchObject({
      message: "cancelled",
      data: { callId: "call_3_0" },
    });
  });

  it("tells the model when a person says no, and the order stays as it was", async () => {
    const model = FakeModel.script([
      { toolCalls: [{ name: "cancelOrder", args: { orderId: "A-771", reason: "duplicate" } }] },
      (request) => `I could not cancel it: ${request.messages.at(-1)?.content}`,
    ]);
    const deps = store();
    const agent = supportAgent(model);
    const paused = await agent.run("cancel A-771", { deps });
    (paused.state as RunState).reject("call_1_0", "the customer must call the shop for this one.");
    const done = await agent.run(paused.state as RunState, { deps });
    expect(done.output).toBe("I could not cancel it: Not run: the customer must call the shop for this one.");
    expect(deps.orders.get("A-771")?.status).toBe("processing");
  });
});
