import { execFileSync } from "node:child_process";
import { createHmac } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import type { Agent } from "toolwright";
import { openPostgresStore, type RunStore } from "toolwright/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain ESM script shared with the store's tests and benchmark, without types.
import { startLocalPostgres } from "../../../scripts/local-postgres.mjs";
import type { runDemo as RunDemo } from "../src/main.js";
import type { refundsServer as RefundsServer } from "../src/server.js";

const root = fileURLToPath(new URL("..", import.meta.url));
let out: string;
let pg: { config: { port: number }; stop(): void };
let runDemo: typeof RunDemo;
let refundsServer: typeof RefundsServer;
let refundsAgent: (model: string) => Agent;

beforeAll(async () => {
  // Built for real, with the transformer, into a folder of this run's own.
  mkdirSync(`${root}.tmp`, { recursive: true });
  out = mkdtempSync(`${root}.tmp/test-build-`);
  execFileSync(`${root}node_modules/.bin/tspc`, ["-p", "tsconfig.build.json", "--outDir", out], { cwd: root });
  ({ runDemo } = await import(`${out}/main.js`));
  ({ refundsServer } = await import(`${out}/server.js`));
  ({ refundsAgent } = await import(`${out}/agent.js`));
  pg = await startLocalPostgres({ durable: false });
});
afterAll(() => {
  pg?.stop();
  rmSync(out, { recursive: true, force: true });
});

describe("durable refunds over HTTP", () => {
  it("queues a run, pauses it for the refund, takes the approval by webhook and completes with one refund", async () => {
    const result = await runDemo(pg.config);
    expect(result.waiting).toMatchObject({ toolName: "refundOrder", args: { orderId: "A-771", amountCents: 500 } });
    expect(result.webhookStatus).toBe(204);
    expect(result.completed.output).toMatch(/^Done: Refund re_1: 500 cents on order A-771\.$/);
    expect(result.refunds).toEqual([
      { orderId: "A-771", amountCents: 500, key: expect.stringContaining(result.runId) },
    ]);
  });

  it("refuses an unsigned webhook, and names the run of a decision that fits no waiting call", async () => {
    const store: RunStore = await openPostgresStore(pg.config);
    const secret = "s3cret";
    const server = refundsServer({ agent: refundsAgent("fake:unused"), store, webhookSecret: secret });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/approvals`;
    try {
      const body = JSON.stringify({ runId: "run_nope", callId: "c1", approve: true });
      const unsigned = await fetch(url, { method: "POST", body });
      expect(unsigned.status).toBe(401);
      const signature = `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
      const unknown = await fetch(url, { method: "POST", body, headers: { "x-signature": signature } });
      expect(unknown.status).toBe(409);
      expect(((await unknown.json()) as { error: string }).error).toContain('no run "run_nope"');
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await store.close();
    }
  });
});
