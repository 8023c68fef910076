import { createHmac } from "node:crypto";
import type { AddressInfo } from "node:net";
import type { Model } from "toolwright";
import { openPostgresStore, type PostgresStoreOptions, type StoredRun, work } from "toolwright/store";
import { refundsAgent } from "./agent.js";
import { type Order, Payments } from "./payments.js";
import { scriptedModel } from "./scripted-model.js";
import { refundsServer } from "./server.js";

/**
 * The whole flow against a PostgreSQL server: an HTTP server and a worker loop in this
 * process, a customer's request by HTTP, a person's approval by signed webhook, the
 * finished run. Returns what happened, for the demo to print and the test to check.
 */
export async function runDemo(database: PostgresStoreOptions, model: Model | string = scriptedModel()) {
  const store = await openPostgresStore(database);
  const payments = new Payments(
    new Map<string, Order>([["A-771", { id: "A-771", paidCents: 4_200, refundedCents: 0 }]]),
  );
  const agent = refundsAgent(model);
  const secret = "demo-webhook-secret";
  const server = refundsServer({ agent, store, webhookSecret: secret });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const stop = new AbortController();
  const worker = work([agent], { store, deps: { payments }, pollMs: 20, signal: stop.signal });
  try {
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${base}${path}`, { method: "POST", body: JSON.stringify(body), headers });
    const { runId } = (await (await post("/runs", { message: "Please refund 5 dollars on order A-771" })).json()) as {
      runId: string;
    };
    const paused = await until(base, runId, "paused");
    const waiting = paused.interruptions[0];
    if (!waiting) throw new Error(`run ${runId} paused with nothing to approve`);
    const decision = JSON.stringify({ runId, callId: waiting.callId, approve: true });
    const signature = `sha256=${createHmac("sha256", secret).update(decision).digest("hex")}`;
    const webhook = await fetch(`${base}/webhooks/approvals`, {
      method: "POST",
      body: decision,
      headers: { "x-signature": signature },
    });
    const completed = await until(base, runId, "completed");
    return { runId, waiting, webhookStatus: webhook.status, completed, refunds: payments.refunds };
  } finally {
    stop.abort();
    await worker;
    await new Promise((resolve) => server.close(resolve));
    await store.close();
  }
}

/** Polls `GET /runs/<id>` until the run reaches `status` (or fails). */
async function until(base: string, runId: string, status: StoredRun["status"]): Promise<StoredRun> {
  for (;;) {
    const run = (await (await fetch(`${base}/runs/${runId}`)).json()) as StoredRun;
    if (run.status === status) return run;
    if (run.status === "failed") throw new Error(`run ${runId} failed: ${run.error}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
