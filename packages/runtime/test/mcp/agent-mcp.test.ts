import type { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent } from "../../src/agent/agent.js";
import { mcpTools } from "../../src/mcp/index.js";
import type { ToolResultMessage } from "../../src/model/messages.js";
import { FakeModel } from "../../src/testing/index.js";
import { tool } from "../../src/tools/tool.js";
import type { Tool } from "../../src/tools/tool-types.js";
import { everythingTransport } from "./everything.js";

/** A local tool next to the remote ones. */
const double = tool({
  name: "double",
  description: "Double a number.",
  parameters: {
    type: "object",
    properties: { n: { type: "number" } },
    required: ["n"],
    additionalProperties: false,
  },
  execute: (args) => (args as { n: number }).n * 2,
});

let transport: StdioClientTransport;
let remote: Tool[];

beforeAll(async () => {
  transport = everythingTransport();
  remote = await mcpTools(transport, {
    filter: (t) => ["get-sum", "echo", "toggle-simulated-logging"].includes(t.name),
    needsApproval: (t) => t.annotations?.readOnlyHint !== true,
  });
});

afterAll(async () => {
  await transport.close();
});

function results(messages: readonly { role: string }[]): ToolResultMessage[] {
  return messages.filter((m): m is ToolResultMessage => m.role === "tool");
}

describe("an Agent with MCP tools next to local ones", () => {
  it("calls a tool of the everything server and a local tool in the same run", async () => {
    const model = FakeModel.script([
      {
        toolCalls: [
          { name: "get-sum", args: { a: 2, b: 3 } },
          { name: "double", args: { n: 21 } },
        ],
      },
      (request) => {
        const read = request.messages.filter((m) => m.role === "tool").map((m) => (m as ToolResultMessage).content);
        return `I read: ${read.join(" | ")}`;
      },
    ]);
    const agent = new Agent({ name: "mixed", model, tools: [...remote, double] });
    const result = await agent.run("Add 2 and 3, and double 21.");

    // The model was offered the server's tools, with the server's own schemas, beside the local one.
    const offered = model.requests[0]?.tools.map((t) => t.name);
    expect(offered).toEqual(["double", "echo", "get-sum", "toggle-simulated-logging"]);
    expect(model.requests[0]?.tools.find((t) => t.name === "get-sum")?.parameters).toMatchObject({
      required: ["a", "b"],
    });

    const [sum, doubled] = results(result.messages);
    expect(sum).toMatchObject({ toolName: "get-sum", outcome: "ok", isError: false });
    expect(sum?.content).toMatch(/\b5\b/);
    expect(doubled).toMatchObject({ toolName: "double", outcome: "ok", content: "42" });
    expect(result.output).toContain(sum?.content);
    expect(result.output).toContain("42");
  });

  it("validates a remote tool's arguments against the server's schema before calling it", async () => {
    const model = FakeModel.script([{ toolCalls: [{ name: "get-sum", args: { a: 2 } }] }, "Sorry."]);
    const result = await new Agent({ name: "strict", model, tools: [...remote, double] }).run("Add 2.");
    const [feedback] = results(result.messages);
    expect(feedback).toMatchObject({ toolName: "get-sum", outcome: "invalid_arguments", isError: true });
    expect(feedback?.content).toMatch(/missing required key "b"/);
  });

  it("pauses for approval before a remote tool the server does not mark read-only", async () => {
    const model = FakeModel.script([{ toolCalls: [{ name: "toggle-simulated-logging", args: {} }] }, "Done."]);
    const result = await new Agent({ name: "careful", model, tools: [...remote] }).run("Turn logging on.");
    expect(result.status).toBe("interrupted");
    expect(result.interruptions.map((i) => i.toolName)).toEqual(["toggle-simulated-logging"]);
  });
});
