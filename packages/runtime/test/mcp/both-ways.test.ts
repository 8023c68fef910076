import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolError } from "../../src/errors.js";
import { runTool } from "../../src/invoke/run-tool.js";
import { type McpServerHandle, mcpTools, serveMcp } from "../../src/mcp/index.js";
import type { Tool } from "../../src/tools/tool-types.js";
import { validateArguments } from "../../src/validation/arguments.js";
import { type Observed, observed } from "./tools.js";

/** toolwright on both ends: tools served over Streamable HTTP, consumed with mcpTools. */
let handle: McpServerHandle;
let transport: StreamableHTTPClientTransport;
let seen: Observed;
let remote: Tool[];

function named(name: string): Tool {
  const found = remote.find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}

beforeAll(async () => {
  const served = observed();
  seen = served.observed;
  handle = await serveMcp(served.tools, { name: "local", version: "1.0.0", transport: { http: { port: 0 } } });
  transport = new StreamableHTTPClientTransport(handle.url as URL);
  remote = await mcpTools(transport, { prefix: "remote" });
});

afterAll(async () => {
  await transport.close();
  await handle.close();
});

describe("serveMcp and mcpTools together", () => {
  it("keeps names (prefixed), descriptions, schemas and flags across the wire", () => {
    expect(remote.map((t) => t.name)).toEqual([
      "remote_add",
      "remote_forecast",
      "remote_stall",
      "remote_wait",
      "remote_delete_file",
      "remote_flaky_read",
      "remote_flaky_write",
      "remote_transfer",
    ]);
    const add = named("remote_add");
    expect(add.description).toBe("Add two numbers and return the sum.");
    expect(add.parameters).toMatchObject({ required: ["a", "b"], additionalProperties: false });
    // A stated hint survives; an unstated one reads as MCP's default (open world).
    expect(add.flags).toEqual({ readOnly: true, destructive: false, idempotent: true, openWorld: true });
    expect(named("remote_delete_file").flags).toMatchObject({ readOnly: false, destructive: true });
  });

  it("round-trips a call, with the structured result checked against the output schema", async () => {
    const result = await runTool(named("remote_forecast"), { city: "Rome", days: 1 });
    expect(result.value).toEqual({ city: "Rome", highs: [20] });
    expect((await runTool(named("remote_add"), { a: 1, b: 2 })).value).toEqual({ result: 3 });
  });

  it("carries a served ToolError back as a ToolError with the same message", async () => {
    const failure = runTool(named("remote_forecast"), { city: "Atlantis" });
    await expect(failure).rejects.toBeInstanceOf(ToolError);
    await expect(failure).rejects.toThrow("No weather station in Atlantis; try a real city.");
  });

  it("checks arguments on the consuming side with the served schema", () => {
    const check = validateArguments(named("remote_forecast"), { city: "Rome", days: 0 });
    expect(check.ok).toBe(false);
  });

  it("cancels through both ends: the consumer's signal aborts the served tool's ctx.signal", async () => {
    const controller = new AbortController();
    const call = runTool(named("remote_wait"), {}, { signal: controller.signal });
    await seen.started;
    controller.abort(new Error("stop both"));
    await expect(call).rejects.toThrow(/stop both/);
    await expect(seen.aborted).resolves.toBe("Error: stop both");
  });
});
