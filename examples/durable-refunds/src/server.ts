import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Agent } from "toolwright";
import { type RunStore, StoreError, submitRun } from "toolwright/store";

/** Options of {@link refundsServer}. */
export interface ServerOptions {
  readonly agent: Agent;
  readonly store: RunStore;
  /** Signs webhook bodies: `x-signature: sha256=<hex HMAC-SHA256 of the body>`. */
  readonly webhookSecret: string;
}

/**
 * The HTTP side: `POST /runs` queues a run for the workers, `GET /runs/<id>` shows it, and
 * `POST /webhooks/approvals` records a person's decision (from a review tool, chat button ...)
 * through the store, whichever process receives it.
 */
export function refundsServer(options: ServerOptions): Server {
  return createServer((req, res) => {
    route(options, req, res).catch((error: unknown) => send(res, 500, { error: String(error) }));
  });
}

async function route(options: ServerOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { store, agent } = options;
  const url = new URL(req.url ?? "/", "http://localhost");
  const body = await read(req);
  if (req.method === "POST" && url.pathname === "/runs") {
    const { message, sessionId } = JSON.parse(body) as { message: string; sessionId?: string };
    const runId = await submitRun(agent, message, { store, ...(sessionId ? { sessionId } : {}) });
    return send(res, 202, { runId });
  }
  const run = /^\/runs\/([\w-]+)$/.exec(url.pathname);
  if (req.method === "GET" && run) {
    const found = await store.get(run[1] as string);
    return found ? send(res, 200, found) : send(res, 404, { error: `no run ${run[1]}` });
  }
  if (req.method === "POST" && url.pathname === "/webhooks/approvals") {
    if (!signed(options.webhookSecret, body, req.headers["x-signature"]))
      return send(res, 401, { error: "bad or missing x-signature" });
    const decision = JSON.parse(body) as { runId: string; callId: string; approve: boolean; message?: string };
    try {
      if (decision.approve) await store.approve(decision.runId, decision.callId);
      else await store.reject(decision.runId, decision.callId, decision.message);
    } catch (error) {
      // Unknown run, a call not waiting, a corrupt row: the sender's mistake, said plainly.
      if (error instanceof StoreError) return send(res, 409, { error: error.message });
      throw error;
    }
    return send(res, 204, undefined);
  }
  send(res, 404, { error: "POST /runs, GET /runs/<id>, POST /webhooks/approvals" });
}

function signed(secret: string, body: string, header: string | string[] | undefined): boolean {
  const expected = Buffer.from(`sha256=${createHmac("sha256", secret).update(body).digest("hex")}`);
  const given = Buffer.from(typeof header === "string" ? header : "");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

async function read(req: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of req) text += chunk;
  return text;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, body === undefined ? {} : { "content-type": "application/json" });
  res.end(body === undefined ? undefined : JSON.stringify(body));
}
