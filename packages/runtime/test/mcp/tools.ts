/**
 * Tools served by the in-process MCP tests, written as plain objects following the
 * `Tool` protocol (what any hand-written or generated tool looks like at run time).
 * Each one records what its context saw, so tests can assert on the server side too.
 */

import { ToolError } from "../../src/errors.js";
import type { ToolContext } from "../../src/invoke/context.js";
import { type McpSession, mcpSession } from "../../src/mcp/index.js";
import type { Tool, ToolArgs } from "../../src/tools/tool-types.js";

/** What the tools saw, per test run. */
export interface Observed {
  sessions: (McpSession | undefined)[];
  contexts: { runId: string; callId: string; deps: unknown }[];
  /** Resolves with the signal's reason once a `wait` call is aborted. */
  aborted: Promise<unknown>;
  /** Resolves once a `wait` call has started. */
  started: Promise<void>;
  deleted: string[];
  /** Amounts the `transfer` tool moved. */
  transferred: number[];
  /** `ctx.attempt` of every run of the flaky tools, by tool. */
  attempts: Record<string, number[]>;
}

export function observed(): { observed: Observed; tools: Tool[] } {
  let onAbort: (reason: unknown) => void = () => {};
  let onStart: () => void = () => {};
  const seen: Observed = {
    sessions: [],
    contexts: [],
    aborted: new Promise((resolve) => {
      onAbort = resolve;
    }),
    started: new Promise((resolve) => {
      onStart = resolve;
    }),
    deleted: [],
    transferred: [],
    attempts: {},
  };

  const add: Tool = {
    name: "add",
    description: "Add two numbers and return the sum.",
    parameters: {
      type: "object",
      properties: { a: { type: "number", description: "First addend." }, b: { type: "number" } },
      required: ["a", "b"],
      additionalProperties: false,
    },
    outputSchema: { type: "number" },
    flags: { readOnly: true, idempotent: true },
    execute: (args: ToolArgs) => args.a + args.b,
  };

  const forecast: Tool = {
    name: "forecast",
    description: "Weather forecast for a city, as structured data.",
    parameters: {
      type: "object",
      properties: { city: { type: "string", minLength: 1 }, days: { type: "integer", minimum: 1, maximum: 7 } },
      required: ["city"],
      additionalProperties: false,
    },
    outputSchema: {
      type: "object",
      properties: { city: { type: "string" }, highs: { type: "array", items: { type: "number" } } },
      required: ["city", "highs"],
      additionalProperties: false,
    },
    flags: { readOnly: true, openWorld: true },
    execute(args: ToolArgs, ctx: ToolContext<never>) {
      seen.sessions.push(mcpSession(ctx));
      seen.contexts.push({ runId: ctx.runId, callId: ctx.callId, deps: ctx.deps });
      ctx.log.info("forecast requested", { city: args.city });
      if (args.city === "Atlantis") throw new ToolError("No weather station in Atlantis; try a real city.");
      return { city: args.city, highs: Array.from({ length: args.days ?? 2 }, (_, i) => 20 + i) };
    },
  };

  const stall: Tool = {
    name: "stall",
    description: "Never finishes on its own; stopped by its 100 ms time limit.",
    parameters: { type: "object", properties: {}, additionalProperties: false },
    flags: {},
    timeoutMs: 100,
    execute: () => new Promise(() => {}),
  };

  const wait: Tool = {
    name: "wait",
    description: "Waits until the caller cancels it.",
    parameters: { type: "object", properties: {}, additionalProperties: false },
    flags: {},
    execute(_args: ToolArgs, ctx: ToolContext<never>) {
      onStart();
      return new Promise((_, reject) => {
        ctx.signal.addEventListener("abort", () => {
          onAbort(ctx.signal.reason);
          reject(ctx.signal.reason);
        });
      });
    },
  };

  const deleteFile: Tool = {
    name: "delete_file",
    description: "Delete a file; a person must approve each call.",
    parameters: {
      type: "object",
      properties: { path: { type: "string" } },
      required: ["path"],
      additionalProperties: false,
    },
    // Only the flag, as a protocol object may say it: enough to gate the call.
    flags: { destructive: true, readOnly: false, needsApproval: true },
    execute(args: ToolArgs) {
      seen.deleted.push(args.path);
      return `deleted ${args.path}`;
    },
  };

  const transfer: Tool = {
    name: "transfer",
    description: "Move money; a person approves transfers over 100.",
    parameters: {
      type: "object",
      properties: { amount: { type: "number" } },
      required: ["amount"],
      additionalProperties: false,
    },
    flags: { destructive: true },
    // A predicate, not a flag: only large amounts wait for a person.
    needsApproval: (_ctx, args) => args.amount > 100,
    execute(args: ToolArgs) {
      seen.transferred.push(args.amount);
      return `moved ${args.amount}`;
    },
  };

  /** Fails twice with a retryable error, then answers; read-only, so the engine may retry it. */
  const flaky = (name: string, flags: Tool["flags"]): Tool => ({
    name,
    description: "Fails twice with a transient error, then answers.",
    parameters: { type: "object", properties: {}, additionalProperties: false },
    flags,
    execute(_args: ToolArgs, ctx: ToolContext<never>) {
      seen.attempts[name] = [...(seen.attempts[name] ?? []), ctx.attempt];
      if (ctx.attempt < 3) throw new ToolError("upstream busy (503)", { retryable: true });
      return "finally";
    },
  });

  return {
    observed: seen,
    tools: [
      add,
      forecast,
      stall,
      wait,
      deleteFile,
      flaky("flaky_read", { readOnly: true }),
      flaky("flaky_write", {}),
      transfer,
    ],
  };
}
