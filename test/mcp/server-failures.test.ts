import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Agent, type CallRecord, type InvokableTool, ToolError, ToolTimeoutError } from "toolwright";
import { type McpToolList, mcpTools } from "toolwright/mcp";
import { FakeModel } from "toolwright/testing";
import { afterEach, describe, expect, it } from "vitest";

/**
 * MCP servers that die under a client, as real processes: an HTTP server killed in the
 * middle of a call, and a stdio server whose process exits. `mcpTools` must fail what
 * cannot finish at once, saying which server and why, and start a server again when it was
 * given the way to.
 */
const server = path.join(import.meta.dirname, "fixtures/mortal-server.mjs");

interface Running {
  readonly url: URL;
  readonly child: ChildProcess;
}

const children: ChildProcess[] = [];
const lists: McpToolList[] = [];

/** Starts the fixture over HTTP in a child process; resolves once it listens. */
function startHttp(hang: boolean): Promise<Running> {
  const child = spawn(process.execPath, [server, "http"], {
    env: { ...process.env, HANG: hang ? "1" : "0" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr += String(chunk);
  });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk) => {
      out += String(chunk);
      const url = /listening (\S+)/.exec(out)?.[1];
      if (url) resolve({ url: new URL(url), child });
    });
    child.once("exit", (code) => reject(new Error(`the server exited (${code}) before listening: ${stderr}`)));
  });
}

function stdio(): StdioClientTransport {
  return new StdioClientTransport({ command: process.execPath, args: [server, "stdio"], stderr: "pipe" });
}

async function listed(list: Promise<McpToolList>): Promise<McpToolList> {
  const tools = await list;
  lists.push(tools);
  return tools;
}

function named(tools: readonly InvokableTool[], name: string): InvokableTool {
  const found = tools.find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}

afterEach(async () => {
  await Promise.all(lists.splice(0).map((list) => list.close()));
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

/**
 * One call of `toolName` through an agent, `onStarted` called when the server first reports
 * progress on it (the call is running, its answer streaming); returns what the run recorded of it.
 */
async function callThroughAgent(tools: InvokableTool[], toolName: string, onStarted: () => void): Promise<CallRecord> {
  const model = FakeModel.script([{ toolCalls: [{ name: toolName, args: {} }] }, "done"]);
  const agent = new Agent({ name: "net", model, tools, toolRetry: { initialBackoffMs: 1 }, toolTimeoutMs: 20_000 });
  let started = false;
  for await (const event of agent.stream("go")) {
    if (event.type === "tool-progress" && !started) {
      started = true;
      onStarted();
    }
    if (event.type === "tool-result") return event.record;
  }
  throw new Error("the call was not recorded");
}

describe("an HTTP MCP server that dies in the middle of a call", () => {
  it("fails the pending call at once, naming the server and the lost connection", async () => {
    const running = await startHttp(true);
    const tools = await listed(mcpTools(new StreamableHTTPClientTransport(running.url), { timeoutMs: 20_000 }));
    // Killed once the call runs and its answer is streaming (the server's first progress report).
    const call = named(tools, "hang_charge").invoke({}, { progress: () => running.child.kill("SIGKILL") });
    const failure = await call.then(
      () => undefined,
      (error: unknown) => error,
    );
    // Not the 20 s time limit: the call fails as soon as the server is found gone.
    expect(failure).not.toBeInstanceOf(ToolTimeoutError);
    expect(failure).toBeInstanceOf(ToolError);
    // The ping finds the port closed (refused), or reaches the listening socket in the moment
    // the killed process is still closing it (reset): either way, no server answers.
    expect((failure as ToolError).message).toMatch(
      /^MCP server mortal failed on tool "hang_charge": the connection was lost \(SSE stream disconnected: .+\), and the server does not answer a ping \(.*(ECONNREFUSED|ECONNRESET).*\)$/,
    );
    expect((failure as ToolError).retryable).toBe(true);
  });

  it("is retried by the engine for a read-only tool: the next attempt reaches the server started again", async () => {
    // The first server hangs and is killed mid-call; the factory starts the next one, which answers.
    const started: Running[] = [];
    const factory = async () => {
      const running = await startHttp(started.length === 0);
      started.push(running);
      return new StreamableHTTPClientTransport(running.url);
    };
    const tools = await listed(mcpTools(factory));
    const call = await callThroughAgent(tools, "hang_lookup", () => started[0]?.child.kill("SIGKILL"));
    expect(call.outcome).toBe("ok");
    expect(call.attempts).toBe(2);
    expect(call.content).toBe(`hang_lookup answered (pid ${started[1]?.child.pid})`);
  });

  it("is not retried for a destructive tool: the model reads which server and tool lost the connection", async () => {
    const running = await startHttp(true);
    const tools = await listed(mcpTools(new StreamableHTTPClientTransport(running.url)));
    const call = await callThroughAgent(tools, "hang_charge", () => running.child.kill("SIGKILL"));
    expect(call.outcome).toBe("tool_error");
    expect(call.attempts).toBe(1);
    expect(call.content).toMatch(/^MCP server mortal failed on tool "hang_charge": the connection was lost/);
  });
});

describe("a stdio MCP server whose process exits", () => {
  it("is started again on the next call when mcpTools was given the function that makes its transport", async () => {
    const tools = await listed(mcpTools(stdio));
    const first = (await named(tools, "echo").invoke({ text: "hi" })).content;
    await expect(named(tools, "crash").invoke({})).rejects.toThrow(
      /^MCP server mortal failed on tool "crash": MCP error -32000: Connection closed$/,
    );
    const again = (await named(tools, "echo").invoke({ text: "hi" })).content;
    expect(again).toMatch(/^hi \(pid \d+\)$/);
    expect(again).not.toBe(first);
  });

  it("is given up on after 3 restarts in a row without a successful call, saying why", async () => {
    const tools = await listed(mcpTools(stdio));
    const crash = named(tools, "crash");
    // The first crash, then three restarts that each crash again.
    for (let i = 0; i < 4; i++) await expect(crash.invoke({})).rejects.toThrow(/Connection closed/);
    const refusal =
      /^MCP server mortal cannot be reached: its connection closed \(a stdio server's process exited\), and it was started again 3 times in a row without a call succeeding, so it is not started again\. The end of its stderr: fatal: the disk is full$/;
    await expect(crash.invoke({})).rejects.toThrow(refusal);
    await expect(named(tools, "echo").invoke({ text: "hi" })).rejects.toThrow(refusal);
  });

  it("fails every later call saying the server exited, with its last stderr line and how to have it restarted", async () => {
    const tools = await listed(mcpTools(stdio()));
    await expect(named(tools, "crash").invoke({})).rejects.toThrow(/Connection closed/);
    const later = named(tools, "echo").invoke({ text: "hi" });
    await expect(later).rejects.toBeInstanceOf(ToolError);
    await expect(later).rejects.toThrow(
      /^MCP server mortal cannot be reached: its connection closed \(a stdio server's process exited\), and toolwright was given no way to start it again\. The end of its stderr: fatal: the disk is full To have it restarted on the next call, give mcpTools a function that makes the transport, e\.g\. mcpTools\(\(\) => new StdioClientTransport\(\{ command, args \}\)\)\.$/,
    );
  });
});
