import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolError } from "../../src/errors.js";
import { mcpTools } from "../../src/mcp/index.js";
import { runTool } from "../../src/run-tool.js";
import type { Tool } from "../../src/tool.js";
import { validateArguments } from "../../src/validation/arguments.js";
import { everythingTransport } from "./everything.js";

const transports: StdioClientTransport[] = [];
let tools: Tool[];

function named(name: string): Tool {
  const found = tools.find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name} among ${tools.map((t) => t.name).join(", ")}`);
  return found;
}

async function call(tool: Tool, raw: unknown, signal?: AbortSignal) {
  const check = validateArguments(tool, raw);
  if (!check.ok) throw check.error;
  return runTool(tool, check.args, signal ? { signal } : {});
}

beforeAll(async () => {
  const transport = everythingTransport();
  transports.push(transport);
  tools = await mcpTools(transport);
});

afterAll(async () => {
  await Promise.all(transports.map((t) => t.close()));
});

describe("mcpTools against @modelcontextprotocol/server-everything (child process, stdio)", () => {
  it("turns every listed tool into a Tool with a portable name and the server's own schema", () => {
    expect(tools.length).toBeGreaterThan(5);
    for (const t of tools) expect(t.name).toMatch(/^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/);
    const sum = named("get-sum");
    expect(sum.description).toMatch(/sum/i);
    expect(sum.parameters).toMatchObject({
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    });
    // draft-07's $schema is dropped so the 2020-12 validator can load the schema.
    expect(sum.parameters).not.toHaveProperty("$schema");
  });

  it("marks tools with the server's annotations as flags", () => {
    expect(named("echo").flags).toEqual({ readOnly: true, destructive: false, idempotent: true, openWorld: false });
    expect(named("toggle-simulated-logging").flags).toEqual({
      readOnly: false,
      destructive: false,
      idempotent: false,
      openWorld: false,
    });
    expect(named("gzip-file-as-resource").flags).toMatchObject({ readOnly: false, idempotent: true, openWorld: true });
  });

  it("validates arguments against the server's schema before anything is sent", () => {
    const check = validateArguments(named("get-sum"), { a: 1, c: 2 });
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.error.message).toMatch(/"b"/);
  });

  it("calls a tool on the server and returns its text", async () => {
    expect((await call(named("echo"), { message: "hello" })).content).toBe("Echo: hello");
    expect((await call(named("get-sum"), { a: 2, b: 5 })).content).toMatch(/7/);
  });

  it("returns structuredContent, checked against the server's output schema", async () => {
    const tool = named("get-structured-content");
    expect(tool.outputSchema).toMatchObject({ type: "object", required: ["temperature", "conditions", "humidity"] });
    const result = await call(tool, { location: "Chicago" });
    expect(result.value).toMatchObject({ temperature: expect.any(Number), conditions: expect.any(String) });
  });

  it("cancels the remote call when ctx.signal aborts", async () => {
    const controller = new AbortController();
    const pending = call(named("trigger-long-running-operation"), { duration: 30, steps: 3 }, controller.signal);
    setTimeout(() => controller.abort(new Error("stop now")), 50);
    await expect(pending).rejects.toThrow(/stop now/);
  });

  it("prefixes every name with an explicit prefix", async () => {
    const client = new Client({ name: "prefix-test", version: "1.0.0" });
    const transport = everythingTransport();
    transports.push(transport);
    await client.connect(transport);
    const prefixed = await mcpTools(client, { prefix: "ev", filter: (t) => t.name.startsWith("get-s") });
    expect(prefixed.map((t) => t.name).sort()).toEqual(["ev_get-structured-content", "ev_get-sum"]);
    // The server is still called by its own name.
    const sum = prefixed.find((t) => t.name === "ev_get-sum") as Tool;
    expect((await call(sum, { a: 1, b: 1 })).content).toMatch(/2/);
  });

  it("prefixes clashing names with the server's key when several servers are combined", async () => {
    const a = everythingTransport();
    const b = everythingTransport();
    transports.push(a, b);
    const combined = await mcpTools(
      { alpha: a, beta: b },
      { filter: (t) => t.name === "echo", needsApproval: (t) => t.annotations?.readOnlyHint !== true },
    );
    expect(combined.map((t) => t.name)).toEqual(["alpha_echo", "beta_echo"]);
    expect(combined.every((t) => t.needsApproval === false)).toBe(true);
  });

  it("turns the server's isError result into a ToolError carrying the server's message", async () => {
    // The schema allows any number; the server itself refuses -1 and answers isError.
    const failure = call(named("get-resource-reference"), { resourceType: "Text", resourceId: -1 });
    await expect(failure).rejects.toBeInstanceOf(ToolError);
    await expect(failure).rejects.toThrow(/Invalid resourceId: -1/);
  });
});
