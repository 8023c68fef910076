import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { type CallToolResult, LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { type Tool, validateArguments } from "toolwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileProject } from "./compile-project.js";

/**
 * serveMcp over stdio, as MCP hosts run servers: the fixture's tools are compiled by the
 * real transformer, and its server runs in a child process spoken to by the SDK's client.
 */
const here = import.meta.dirname;
/** This run's own build folder (under the git-ignored test/mcp/.tmp, so "toolwright" resolves from test/). */
let outDir: string;

const require = createRequire(import.meta.url);
/** The `toolwright` executable, as installed with @toolwright/compiler. */
const cliBin = path.join(
  path.dirname(require.resolve("@toolwright/compiler/package.json")),
  (require("@toolwright/compiler/package.json") as { bin: Record<string, string> }).bin.toolwright as string,
);

let client: Client;
let compiled: Record<string, Tool>;
let started: Promise<void>;

function text(result: Awaited<ReturnType<Client["callTool"]>>): string {
  return (result as CallToolResult).content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

beforeAll(async () => {
  mkdirSync(path.join(here, ".tmp"), { recursive: true });
  outDir = mkdtempSync(path.join(here, ".tmp", "stdio-server-"));
  compileProject(path.join(here, "fixtures/stdio-server/tsconfig.json"), outDir);
  compiled = (await import(path.join(outDir, "tools.js"))) as Record<string, Tool>;
  client = new Client({ name: "stdio-test", version: "1.0.0" });
  started = new Promise((resolve) => {
    client.setNotificationHandler(LoggingMessageNotificationSchema, (note) => {
      if (note.params.logger === "wait") resolve();
    });
  });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [path.join(outDir, "server.js")], stderr: "pipe" }),
  );
});

afterAll(async () => {
  await client?.close();
  rmSync(outDir, { recursive: true, force: true });
});

describe("serveMcp over stdio (child process, compiled tools)", () => {
  it("lists the compiled tools with their derived schemas and flags as annotations", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["add", "forecast", "stall", "wait", "cancellations", "echo"]);
    expect(tools.find((t) => t.name === "echo")?.inputSchema).toEqual({
      type: "object",
      properties: { text: { type: "string", description: "Any text." } },
      required: ["text"],
      additionalProperties: false,
    });
    const forecast = tools.find((t) => t.name === "forecast");
    expect(forecast?.description).toBe("Forecast of the daily highs for a city, as structured data.");
    expect(forecast?.inputSchema).toEqual({
      type: "object",
      properties: {
        city: { type: "string", description: 'City name, e.g. "Oslo".' },
        days: { type: "number", description: "How many days to forecast.", default: 2 },
      },
      required: ["city"],
      additionalProperties: false,
    });
    expect(forecast?.outputSchema).toMatchObject({ type: "object", required: ["city", "highs"] });
    expect(forecast?.annotations).toEqual({ readOnlyHint: true, openWorldHint: true });
    expect(tools.find((t) => t.name === "add")?.annotations).toEqual({ readOnlyHint: true, idempotentHint: true });
  });

  it("runs a valid call and returns structuredContent matching the output schema", async () => {
    const result = await client.callTool({ name: "forecast", arguments: { city: "Oslo", days: 3 } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ city: "Oslo", highs: [20, 21, 22] });
    const sum = await client.callTool({ name: "add", arguments: { a: 19, b: 23 } });
    expect(sum.structuredContent).toEqual({ result: 42 });
    expect(text(sum)).toBe("42");
    const echoed = await client.callTool({ name: "echo", arguments: { text: "bare functions work too" } });
    expect(echoed.structuredContent).toEqual({ result: "bare functions work too" });
  });

  it("answers invalid arguments with exactly the feedback the loop gives", async () => {
    const bad = { town: "Oslo", days: "many" };
    const result = await client.callTool({ name: "forecast", arguments: bad });
    expect(result.isError).toBe(true);
    expect(result).not.toHaveProperty("structuredContent");
    const check = validateArguments(compiled.forecastTool as Tool, bad);
    if (check.ok) throw new Error("the arguments were meant to be invalid");
    expect(text(result)).toBe(check.error.message);
    expect(text(result)).toContain('unexpected key "town"');
    expect(text(result)).toContain('missing required key "city"');
  });

  it("sends a ToolError's message as an isError result", async () => {
    const result = await client.callTool({ name: "forecast", arguments: { city: "Atlantis" } });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe("No weather station in Atlantis; try a real city.");
  });

  it("stops a call at the tool's time limit", async () => {
    const result = await client.callTool({ name: "stall", arguments: {} });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe("stall did not finish within 100 ms and was stopped.");
  });

  it("aborts the tool's ctx.signal in the server process when the client cancels", async () => {
    const controller = new AbortController();
    const call = client.callTool({ name: "wait", arguments: {} }, undefined, { signal: controller.signal });
    await started;
    controller.abort(new Error("cancelled by the test"));
    await expect(call).rejects.toThrow(/cancelled by the test/);
    // notifications/cancelled travels to the child asynchronously; ask until it has arrived.
    let cancelled: string[] = [];
    for (let i = 0; i < 50 && cancelled.length === 0; i++) {
      const answer = await client.callTool({ name: "cancellations", arguments: {} });
      cancelled = (answer.structuredContent as { result: string[] }).result;
      if (cancelled.length === 0) await sleep(20);
    }
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]).toMatch(/^[0-9a-f-]{36}:\d+$/);
  });
});

describe("toolwright mcp <module> (the CLI, child process)", () => {
  let cli: Client;

  beforeAll(async () => {
    cli = new Client({ name: "cli-test", version: "1.0.0" });
    await cli.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [cliBin, "mcp", path.join(outDir, "tools.js"), "--name", "fixture-tools", "--version", "2.0.0"],
        stderr: "pipe",
      }),
    );
  });

  afterAll(async () => {
    await cli?.close();
  });

  it("serves every tool the module exports, once, under the given name", async () => {
    expect(cli.getServerVersion()).toMatchObject({ name: "fixture-tools", version: "2.0.0" });
    const { tools } = await cli.listTools();
    // Each tool is exported on its own and again in the `all` array.
    expect(tools.map((t) => t.name)).toEqual(["add", "forecast", "stall", "wait", "cancellations"]);
    expect(tools.find((t) => t.name === "add")?.annotations).toEqual({ readOnlyHint: true, idempotentHint: true });
  });

  it("runs calls with the same validation and results as serveMcp", async () => {
    const sum = await cli.callTool({ name: "add", arguments: { a: 1, b: 2 } });
    expect(sum.structuredContent).toEqual({ result: 3 });
    const bad = await cli.callTool({ name: "add", arguments: { a: 1 } });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toContain('missing required key "b"');
  });
});
