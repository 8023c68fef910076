import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CallToolResultSchema,
  EmptyResultSchema,
  ListToolsResultSchema,
  type LoggingMessageNotification,
  LoggingMessageNotificationSchema,
  type Progress,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolContext } from "../../src/invoke/context.js";
import { type McpServerHandle, mcpTools, serveMcp } from "../../src/mcp/index.js";
import type { Tool, ToolArgs } from "../../src/tools/tool-types.js";

/**
 * What the MCP specification asks of a server beyond calling tools, checked with the
 * official SDK client over real HTTP on loopback: invalid params, log levels, cursors and
 * progress. The client is told nothing of toolwright: each answer is what any client reads.
 */

const chatty: Tool = {
  name: "chatty",
  description: "Writes one ctx.log line at each level, then answers.",
  parameters: { type: "object", properties: {}, additionalProperties: false },
  flags: { readOnly: true },
  execute(_args: ToolArgs, ctx: ToolContext<never>) {
    ctx.log.debug("a debug line");
    ctx.log.info("an info line");
    ctx.log.warn("a warning line");
    ctx.log.error("an error line");
    return "said everything";
  },
};

const count: Tool = {
  name: "count",
  description: "Counts to three, reporting progress on the way.",
  parameters: { type: "object", properties: {}, additionalProperties: false },
  flags: { readOnly: true },
  execute(_args: ToolArgs, ctx: ToolContext<never>) {
    ctx.progress(1, 3, "one");
    ctx.progress(2, 3);
    // Not past the last report: MCP wants progress to grow, so this one is not sent.
    ctx.progress(2, 3, "two again");
    ctx.progress(3, 3, "three");
    return "counted";
  },
};

/** A 1×1 PNG, and a few bytes of WAV header, base64. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const WAV = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=";

const snapshot: Tool = {
  name: "snapshot",
  description: "A picture of the room and the sound in it.",
  parameters: { type: "object", properties: {}, additionalProperties: false },
  // What a compiled tool returning the parts announces: it is not sent as an outputSchema.
  outputSchema: {
    type: "array",
    items: {
      anyOf: [
        { type: "string" },
        {
          type: "object",
          properties: { type: { enum: ["image", "audio"] }, data: { type: "string" }, mimeType: { type: "string" } },
          required: ["type", "data", "mimeType"],
        },
      ],
    },
  },
  flags: { readOnly: true },
  execute: () => [
    "The room:",
    { type: "image", data: PNG, mimeType: "image/png" },
    { type: "audio", data: WAV, mimeType: "audio/wav" },
  ],
};

let handle: McpServerHandle;
const clients: Client[] = [];

async function connect(): Promise<Client> {
  const client = new Client({ name: "protocol-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(handle.url as URL));
  clients.push(client);
  return client;
}

/** The log lines a client receives while `run` runs. */
async function logsDuring(
  client: Client,
  run: () => Promise<unknown>,
): Promise<LoggingMessageNotification["params"][]> {
  const lines: LoggingMessageNotification["params"][] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (note) => {
    lines.push(note.params);
  });
  await run();
  return lines;
}

beforeAll(async () => {
  handle = await serveMcp([chatty, count, snapshot], {
    name: "protocol-tools",
    version: "1.0.0",
    transport: { http: { port: 0 } },
  });
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await handle.close();
});

describe("invalid params get -32602 with one line, as the MCP specification asks", () => {
  it("a tools/call whose arguments are not an object", async () => {
    const client = await connect();
    // Sent as it is: the SDK client does not check what it sends.
    const call = client.request(
      { method: "tools/call", params: { name: "chatty", arguments: "x" as never } },
      CallToolResultSchema,
    );
    await expect(call).rejects.toMatchObject({ code: -32602 });
    await expect(call).rejects.toThrow(
      /^MCP error -32602: Invalid params of tools\/call: params\.arguments: Invalid input: expected record, received string$/,
    );
  });

  it("a tools/call without a tool name", async () => {
    const call = (await connect()).request({ method: "tools/call", params: {} as never }, CallToolResultSchema);
    await expect(call).rejects.toMatchObject({ code: -32602 });
    await expect(call).rejects.toThrow(/^MCP error -32602: Invalid params of tools\/call: params\.name: [^\n]+$/);
  });

  it("a logging/setLevel with a level the protocol does not have", async () => {
    const change = (await connect()).setLoggingLevel("loud" as never);
    await expect(change).rejects.toMatchObject({ code: -32602 });
    await expect(change).rejects.toThrow(
      /^MCP error -32602: Invalid params of logging\/setLevel: params\.level: Invalid option: expected one of "debug"\|"info"\|[^\n]+$/,
    );
  });

  it("a tools/list with a cursor the server never issued", async () => {
    const client = await connect();
    const list = client.request({ method: "tools/list", params: { cursor: "page-2" } }, ListToolsResultSchema);
    await expect(list).rejects.toMatchObject({ code: -32602 });
    await expect(list).rejects.toThrow(/^MCP error -32602: Unknown cursor "page-2": this server lists every tool/);
    // Without a cursor, the whole list, and no cursor to follow.
    const { tools, nextCursor } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["chatty", "count", "snapshot"]);
    expect(nextCursor).toBeUndefined();
  });

  it("a method the server does not serve is still -32601", async () => {
    const call = (await connect()).request({ method: "prompts/list" }, EmptyResultSchema);
    await expect(call).rejects.toMatchObject({ code: -32601 });
  });
});

describe("logging/setLevel", () => {
  it("sends every ctx.log line until the client sets a level", async () => {
    const client = await connect();
    const lines = await logsDuring(client, () => client.callTool({ name: "chatty", arguments: {} }));
    expect(lines.map((line) => line.level)).toEqual(["debug", "info", "warning", "error"]);
    expect(lines[0]).toEqual({ level: "debug", logger: "chatty", data: "a debug line" });
  });

  it("then sends only lines at that level or more severe, for that session alone", async () => {
    const quiet = await connect();
    await quiet.setLoggingLevel("warning");
    const kept = await logsDuring(quiet, () => quiet.callTool({ name: "chatty", arguments: {} }));
    expect(kept.map((line) => line.level)).toEqual(["warning", "error"]);

    await quiet.setLoggingLevel("emergency");
    expect(await logsDuring(quiet, () => quiet.callTool({ name: "chatty", arguments: {} }))).toEqual([]);

    const other = await connect();
    const all = await logsDuring(other, () => other.callTool({ name: "chatty", arguments: {} }));
    expect(all).toHaveLength(4);
  });
});

describe("images and sounds a served tool returns", () => {
  it("go out as MCP image and audio content beside the text, not as JSON", async () => {
    const client = await connect();
    const listed = (await client.listTools()).tools.find((t) => t.name === "snapshot");
    expect(listed).not.toHaveProperty("outputSchema");
    const result = await client.callTool({ name: "snapshot", arguments: {} });
    expect(result).toEqual({
      content: [
        { type: "text", text: "The room:" },
        { type: "image", data: PNG, mimeType: "image/png" },
        { type: "audio", data: WAV, mimeType: "audio/wav" },
      ],
    });
  });

  it("reach an agent's model as media through mcpTools, named in the text", async () => {
    const tools = await mcpTools(new StreamableHTTPClientTransport(handle.url as URL));
    try {
      const remote = tools.find((t) => t.name === "snapshot") as (typeof tools)[number];
      const run = await remote.invoke({});
      expect(run.media).toEqual([
        { type: "image", data: PNG, mimeType: "image/png" },
        { type: "audio", data: WAV, mimeType: "audio/wav" },
      ]);
      expect(run.content).toBe("The room:\n[image image/png, 70 bytes]\n[audio audio/wav, 44 bytes]");
    } finally {
      await tools.close();
    }
  });
});

describe("ctx.progress on a served call", () => {
  it("sends notifications/progress for the request's progressToken, each value past the last", async () => {
    const reports: Progress[] = [];
    const result = await (await connect()).callTool({ name: "count", arguments: {} }, undefined, {
      onprogress: (progress) => reports.push(progress),
    });
    expect(result.isError).toBeFalsy();
    expect(reports).toEqual([
      { progress: 1, total: 3, message: "one" },
      { progress: 2, total: 3 },
      { progress: 3, total: 3, message: "three" },
    ]);
  });

  it("sends nothing when the request carries no progressToken", async () => {
    const client = await connect();
    const seen: unknown[] = [];
    client.fallbackNotificationHandler = async (note) => {
      seen.push(note);
    };
    await client.callTool({ name: "count", arguments: {} });
    expect(seen).toEqual([]);
  });
});
