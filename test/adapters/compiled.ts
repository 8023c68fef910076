import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { FunctionTool } from "toolwright";
import { afterAll, afterEach, beforeAll } from "vitest";
import {
  type Captured,
  type Loopback,
  nth,
  type ScriptStep,
  startLoopback,
} from "../../packages/runtime/test/providers/servers/loopback.js";
import { openAiChatRenderer } from "../../packages/runtime/test/providers/servers/openai-chat-server.js";
import { compileProject } from "../mcp/compile-project.js";

/** The fixture's tools, compiled by the real TypeScript compiler and the real transformer. */
export interface FixtureTools {
  readonly forecast: FunctionTool;
  readonly lookup: FunctionTool;
  readonly refund: FunctionTool;
  readonly close: FunctionTool;
  readonly tag: FunctionTool;
  readonly report: FunctionTool;
  readonly book: FunctionTool;
}

/** The order book every test starts from: what `ctx.deps` holds. */
export function shop() {
  return {
    orders: new Map([
      ["A-1", { totalCents: 12_000, refunded: false }],
      ["B-2", { totalCents: 900, refunded: false }],
    ]),
    calls: [] as string[],
  };
}

/**
 * Builds test/adapters/fixture into a folder of its own inside the test package (so the
 * output resolves "toolwright" as a user's build does) and imports it; `remove` deletes it.
 */
export async function compileFixture(): Promise<{ tools: FixtureTools; remove: () => void }> {
  const tmp = path.join(import.meta.dirname, ".tmp");
  mkdirSync(tmp, { recursive: true });
  const outDir = mkdtempSync(path.join(tmp, "out-"));
  compileProject(path.join(import.meta.dirname, "fixture", "tsconfig.json"), outDir);
  const tools = (await import(pathToFileURL(path.join(outDir, "tools.js")).href)) as FixtureTools;
  return { tools, remove: () => rmSync(outDir, { recursive: true, force: true }) };
}

/** What a test file of this folder shares: the compiled tools, one loopback server per test, what its model read. */
export interface AdapterTest {
  /** The compiled fixture tools (after the file's `beforeAll`). */
  readonly tools: FixtureTools;
  /** Starts the loopback Chat Completions server on `script`; returns its base URL (`…/v1` is the API). */
  start(script: readonly ScriptStep[]): Promise<string>;
  /** Request `n` the server received. */
  request(n: number): Captured;
  /** What the model read of each call in request `n`, by call id. */
  toolMessages(n: number): Record<string, unknown>;
}

/** Registers the hooks of an adapter test file (compile once, a server per test) and returns its helpers. */
export function useAdapterTest(): AdapterTest {
  let compiled: Awaited<ReturnType<typeof compileFixture>> | undefined;
  let server: Loopback | undefined;
  beforeAll(async () => {
    compiled = await compileFixture();
  });
  afterAll(() => compiled?.remove());
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const running = () => {
    if (!server) throw new Error("no loopback server: call start(script) first");
    return server;
  };
  return {
    get tools() {
      if (!compiled) throw new Error("the fixture is compiled in beforeAll");
      return compiled.tools;
    },
    async start(script) {
      await server?.close();
      server = await startLoopback(openAiChatRenderer(), script);
      return server.url;
    },
    request: (n) => nth(running(), n),
    toolMessages(n) {
      const messages = nth(running(), n).body.messages as { role: string; tool_call_id?: string; content: unknown }[];
      return Object.fromEntries(messages.filter((m) => m.role === "tool").map((m) => [m.tool_call_id, m.content]));
    },
  };
}
