import { request } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  type CallToolResult,
  ElicitRequestSchema,
  type ElicitResult,
  type LoggingMessageNotification,
  LoggingMessageNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type McpServerHandle, serveMcp } from "../../src/mcp/index.js";
import { validateArguments } from "../../src/validation/arguments.js";
import { type Observed, observed } from "./tools.js";

let handle: McpServerHandle;
let seen: Observed;
let served: ReturnType<typeof observed>["tools"];
const clients: Client[] = [];

async function connect(elicit?: (message: string) => ElicitResult): Promise<Client> {
  const client = new Client(
    { name: "http-test", version: "1.0.0" },
    elicit ? { capabilities: { elicitation: { form: {} } } } : undefined,
  );
  if (elicit) client.setRequestHandler(ElicitRequestSchema, (request) => elicit(request.params.message));
  if (!handle.url) throw new Error("serveMcp over HTTP gave no url");
  await client.connect(new StreamableHTTPClientTransport(handle.url));
  clients.push(client);
  return client;
}

/** A raw HTTP exchange with the endpoint, for what the SDK client never sends. */
function raw(
  options: { method?: string; path?: string; headers?: Record<string, string> },
  body?: unknown,
): Promise<{ status: number; body: string }> {
  const url = handle.url as URL;
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method: options.method ?? "POST",
        path: options.path ?? url.pathname,
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...options.headers,
        },
      },
      (res) => {
        let data = "";
        res.on("data", (chunk) => {
          data += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: data }));
      },
    );
    req.on("error", reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

function text(result: Awaited<ReturnType<Client["callTool"]>>): string {
  return (result as CallToolResult).content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

beforeAll(async () => {
  ({ observed: seen, tools: served } = observed());
  handle = await serveMcp(served, {
    name: "http-tools",
    version: "1.2.3",
    deps: { unit: "celsius" },
    toolRetry: { initialBackoffMs: 1 },
    transport: { http: { port: 0 } },
  });
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await handle.close();
});

describe("serveMcp over Streamable HTTP (127.0.0.1, official SDK client)", () => {
  it("listens on loopback and names itself", async () => {
    expect(handle.url?.hostname).toBe("127.0.0.1");
    const client = await connect();
    expect(client.getServerVersion()).toMatchObject({ name: "http-tools", version: "1.2.3" });
  });

  it("lists every tool with its input schema, output schema and annotations", async () => {
    const { tools } = await (await connect()).listTools();
    expect(tools.map((t) => t.name)).toEqual([
      "add",
      "forecast",
      "stall",
      "wait",
      "delete_file",
      "flaky_read",
      "flaky_write",
      "transfer",
    ]);
    const add = tools.find((t) => t.name === "add");
    expect(add?.inputSchema).toEqual(served[0]?.parameters);
    // A non-object return type travels wrapped, since MCP output schemas are objects.
    expect(add?.outputSchema).toEqual({
      type: "object",
      properties: { result: { type: "number" } },
      required: ["result"],
      additionalProperties: false,
    });
    expect(add?.annotations).toEqual({ readOnlyHint: true, idempotentHint: true });
    const forecast = tools.find((t) => t.name === "forecast");
    expect(forecast?.outputSchema).toEqual(served[1]?.outputSchema);
    expect(forecast?.annotations).toEqual({ readOnlyHint: true, openWorldHint: true });
    expect(tools.find((t) => t.name === "delete_file")?.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
    });
    expect(tools.find((t) => t.name === "wait")).not.toHaveProperty("outputSchema");
    expect(tools.find((t) => t.name === "wait")).not.toHaveProperty("annotations");
  });

  it("calls a tool and returns text plus structuredContent matching the output schema", async () => {
    const client = await connect();
    const sum = await client.callTool({ name: "add", arguments: { a: 2, b: 40 } });
    expect(sum.isError).toBeFalsy();
    expect(text(sum)).toBe("42");
    expect(sum.structuredContent).toEqual({ result: 42 });

    const forecast = await client.callTool({ name: "forecast", arguments: { city: "Oslo", days: 3 } });
    expect(forecast.structuredContent).toEqual({ city: "Oslo", highs: [20, 21, 22] });
    expect(JSON.parse(text(forecast))).toEqual({ city: "Oslo", highs: [20, 21, 22] });
  });

  it("answers invalid arguments with the loop's feedback, as an isError result without structuredContent", async () => {
    const client = await connect();
    const bad = { city: "", days: 9, when: "tomorrow" };
    const result = await client.callTool({ name: "forecast", arguments: bad });
    expect(result.isError).toBe(true);
    expect(result).not.toHaveProperty("structuredContent");
    const check = validateArguments(served[1] as (typeof served)[number], bad);
    if (check.ok) throw new Error("the arguments were meant to be invalid");
    expect(text(result)).toBe(check.error.message);
    expect(text(result)).toMatch(/when/);
    expect(text(result)).toMatch(/days/);
  });

  it("repairs what the loop repairs: a numeric string for a number", async () => {
    const sum = await (await connect()).callTool({ name: "add", arguments: { a: "2", b: 3 } });
    expect(sum.structuredContent).toEqual({ result: 5 });
  });

  it("turns a ToolError into an isError result with the tool's message", async () => {
    const result = await (await connect()).callTool({ name: "forecast", arguments: { city: "Atlantis" } });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe("No weather station in Atlantis; try a real city.");
    expect(result).not.toHaveProperty("structuredContent");
  });

  it("refuses an unknown tool with a protocol error naming the available tools, its code said once", async () => {
    const refusal = (await connect()).callTool({ name: "nope", arguments: {} });
    await expect(refusal).rejects.toMatchObject({ code: -32602 });
    await expect(refusal).rejects.toThrow(
      /^MCP error -32602: Unknown tool "nope"\. Available tools: add, delete_file, flaky_read, flaky_write, forecast, stall, transfer, wait\.$/,
    );
  });

  it("stops a tool at its time limit and says so", async () => {
    const result = await (await connect()).callTool({ name: "stall", arguments: {} });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe("stall did not finish within 100 ms and was stopped.");
  });

  it("retries a retryable ToolError of a read-only tool before the client sees it, as the loop does", async () => {
    const client = await connect();
    const result = await client.callTool({ name: "flaky_read", arguments: {} });
    expect(text(result)).toBe("finally");
    expect(seen.attempts.flaky_read).toEqual([1, 2, 3]);

    const write = await client.callTool({ name: "flaky_write", arguments: {} });
    expect(write.isError).toBe(true);
    expect(text(write)).toBe("upstream busy (503)");
    expect(seen.attempts.flaky_write).toEqual([1]);
  });

  it("aborts the tool's ctx.signal when the client cancels the request", async () => {
    const client = await connect();
    const controller = new AbortController();
    const call = client.callTool({ name: "wait", arguments: {} }, undefined, { signal: controller.signal });
    await seen.started;
    controller.abort(new Error("user pressed stop"));
    await expect(call).rejects.toThrow(/user pressed stop/);
    // The server learns of it through notifications/cancelled and aborts the signal it gave the tool.
    // The SDK client sends the abort reason as text; the server aborts ctx.signal with it.
    await expect(seen.aborted).resolves.toBe("Error: user pressed stop");
  });

  it("gives the tool a context carrying the MCP session, deps, and ctx.log as MCP log messages", async () => {
    const client = await connect();
    const logs: LoggingMessageNotification["params"][] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (note) => {
      logs.push(note.params);
    });
    seen.sessions.length = 0;
    seen.contexts.length = 0;
    await client.callTool({ name: "forecast", arguments: { city: "Lima" } });
    const session = seen.sessions[0];
    const ctx = seen.contexts[0];
    expect(session?.transport).toBe("http");
    expect(session?.client).toMatchObject({ name: "http-test", version: "1.0.0" });
    expect(typeof session?.requestId).toBe("number");
    expect(ctx?.runId).toBe(session?.sessionId);
    expect(ctx?.callId).toBe(`${session?.sessionId}:${session?.requestId}`);
    expect(ctx?.deps).toEqual({ unit: "celsius" });
    expect(logs).toContainEqual({
      level: "info",
      logger: "forecast",
      data: { message: "forecast requested", data: { city: "Lima" } },
    });
  });

  describe("the HTTP endpoint", () => {
    const ping = { jsonrpc: "2.0", id: 1, method: "ping" };

    it("refuses a Host header it does not answer to (DNS rebinding)", async () => {
      const answer = await raw({ headers: { host: "attacker.example" } }, ping);
      expect(answer.status).toBe(403);
      expect(JSON.parse(answer.body).error.message).toMatch(
        /Host "attacker.example" is not one this server answers to/,
      );
    });

    it("answers other paths with 404 naming the endpoint", async () => {
      const answer = await raw({ path: "/other" }, ping);
      expect(answer.status).toBe(404);
      expect(answer.body).toMatch(/the MCP endpoint is \/mcp/);
    });

    it("asks for initialize first when a request has no session", async () => {
      const answer = await raw({}, ping);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatch(/not an initialize request/);
    });

    it("answers an unknown session with 404, so the client starts a new one", async () => {
      const answer = await raw({ headers: { "mcp-session-id": "no-such-session" } }, ping);
      expect(answer.status).toBe(404);
      expect(answer.body).toMatch(/Session no-such-session not found/);
    });
  });

  describe("approval-gated tools", () => {
    it("refuse to run for a client that cannot elicit", async () => {
      const result = await (await connect()).callTool({ name: "delete_file", arguments: { path: "/tmp/a" } });
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(/needs a person's approval.*does not declare the "elicitation" capability/);
      expect(seen.deleted).not.toContain("/tmp/a");
    });

    it("ask the person through elicitation and run when approved", async () => {
      const asked: string[] = [];
      const client = await connect((message) => {
        asked.push(message);
        return { action: "accept", content: { approve: true } };
      });
      const result = await client.callTool({ name: "delete_file", arguments: { path: "/tmp/b" } });
      expect(text(result)).toBe("deleted /tmp/b");
      expect(asked[0]).toMatch(/Allow the tool "delete_file" to run/);
      expect(asked[0]).toContain('"path": "/tmp/b"');
      expect(seen.deleted).toContain("/tmp/b");
    });

    it("ask only when the tool's needsApproval predicate says so", async () => {
      const unasked = await connect();
      const small = await unasked.callTool({ name: "transfer", arguments: { amount: 40 } });
      expect(text(small)).toBe("moved 40");
      const large = await unasked.callTool({ name: "transfer", arguments: { amount: 500 } });
      expect(large.isError).toBe(true);
      expect(text(large)).toMatch(/tool "transfer" needs a person's approval/);
      expect(seen.transferred).toEqual([40]);

      const asked: string[] = [];
      const approving = await connect((message) => {
        asked.push(message);
        return { action: "accept", content: { approve: true } };
      });
      await approving.callTool({ name: "transfer", arguments: { amount: 30 } });
      expect(asked).toEqual([]);
      expect(text(await approving.callTool({ name: "transfer", arguments: { amount: 700 } }))).toBe("moved 700");
      expect(asked).toHaveLength(1);
      expect(asked[0]).toContain('"amount": 700');
      expect(seen.transferred).toEqual([40, 30, 700]);
    });

    it("do not run when the person declines", async () => {
      const client = await connect(() => ({ action: "decline" }));
      const result = await client.callTool({ name: "delete_file", arguments: { path: "/tmp/c" } });
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(
        /^Not run: A person did not approve the call of tool "delete_file" \(they chose "decline"/,
      );
      expect(seen.deleted).not.toContain("/tmp/c");
    });
  });
});
