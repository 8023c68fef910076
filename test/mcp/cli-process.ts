import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/** `toolwright mcp` as a real process, for the CLI tests: over stdio to an SDK client, or on Streamable HTTP. */

const require = createRequire(import.meta.url);
/** The `toolwright` executable, as installed with @toolwright/compiler. */
const cliBin = path.join(
  path.dirname(require.resolve("@toolwright/compiler/package.json")),
  (require("@toolwright/compiler/package.json") as { bin: Record<string, string> }).bin.toolwright as string,
);
const children: ChildProcess[] = [];
const clients: Client[] = [];

/** Closes the clients and ends the processes the last test started. */
export async function stopAll(): Promise<void> {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  for (const child of children.splice(0)) child.kill();
}

/** Keeps `client` to be closed by {@link stopAll}. */
export function owned(client: Client): Client {
  clients.push(client);
  return client;
}

/** The text blocks of a tool result, joined. */
export function text(result: Awaited<ReturnType<Client["callTool"]>>): string {
  return (result as CallToolResult).content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

/** Starts `toolwright mcp <module> ...args` over stdio; resolves with the client and what the CLI wrote to stderr so far. */
export async function overStdio(module: string, ...args: string[]): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliBin, "mcp", module, ...args],
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk) => {
    stderr += String(chunk);
  });
  const client = owned(new Client({ name: "cli-test", version: "1.0.0" }));
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

/**
 * Starts `toolwright mcp <module> --http 0 ...args`; resolves with the endpoint and the CLI's
 * stderr once it listens, or rejects with that stderr when the process exits first.
 */
export function overHttp(
  module: string,
  env: Record<string, string>,
  ...args: string[]
): Promise<{ url: URL; stderr: () => string }> {
  const child = spawn(process.execPath, [cliBin, "mcp", module, "--http", "0", ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  children.push(child);
  let stderr = "";
  return new Promise((resolve, reject) => {
    child.stderr?.on("data", (chunk) => {
      stderr += String(chunk);
      const url = / on (http:\/\/\S+\/mcp)/.exec(stderr)?.[1];
      if (url) resolve({ url: new URL(url), stderr: () => stderr });
    });
    child.once("exit", (code) => reject(new Error(`toolwright mcp exited (${code}): ${stderr}`)));
  });
}
