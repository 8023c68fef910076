import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { Agent, type InvokableTool, ToolArgumentError, type ToolResultMessage } from "toolwright";
import { type DialectName, dialects } from "toolwright/dialects";
import { FakeModel } from "toolwright/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileProject } from "../mcp/compile-project.js";

/**
 * `Date` parameters and members, end to end: the fixture is compiled by the real
 * transformer, then called through `invoke`, the agent loop and an MCP server in a child
 * process. The model sees date-time strings; the function receives `Date`s.
 */
const here = import.meta.dirname;
let outDir: string;
let book: InvokableTool;
let stay: InvokableTool;
let client: Client;

beforeAll(async () => {
  outDir = mkdtempSync(path.join(os.tmpdir(), "toolwright-dates-"));
  // The compiled modules import toolwright from the test workspace.
  symlinkSync(path.join(here, "../node_modules"), path.join(outDir, "node_modules"), "dir");
  writeFileSync(path.join(outDir, "package.json"), JSON.stringify({ type: "module", private: true }));
  compileProject(path.join(here, "fixture/tsconfig.json"), outDir);
  ({ book, stay } = (await import(path.join(outDir, "tools.js"))) as { book: InvokableTool; stay: InvokableTool });
  client = new Client({ name: "dates-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [path.join(outDir, "server.js")], stderr: "pipe" }),
  );
});

afterAll(async () => {
  await client?.close();
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

const args = {
  at: "2026-03-01T09:30:00Z",
  reminders: ["2026-02-28T09:30:00+01:00", "2026-03-01t09:00:00.250z"],
  hold: { start: "2026-03-01T09:00:00Z" },
  event: { kind: "call", at: "2026-03-01T09:30:00Z", followUps: ["2026-03-08T09:30:00-05:30"] },
  moved: null,
};

/** What the fixture's function reports it received for {@link args}. */
const received = {
  at: "Date(2026-03-01T09:30:00.000Z)",
  reminders: ["Date(2026-02-28T08:30:00.000Z)", "Date(2026-03-01T09:00:00.250Z)"],
  hold: { start: "Date(2026-03-01T09:00:00.000Z)" },
  event: { kind: "string", at: "Date(2026-03-01T09:30:00.000Z)", followUps: ["Date(2026-03-08T15:00:00.000Z)"] },
  moved: null,
};

describe("Date parameters and members (issue 11)", () => {
  it("show the model date-time strings, with no runtime keyword in any dialect", () => {
    expect(book.parameters.properties).toMatchObject({
      at: { type: "string", format: "date-time" },
      reminders: { type: "array", items: { type: "string", format: "date-time" } },
    });
    for (const name of Object.keys(dialects) as DialectName[]) {
      const sent = JSON.stringify(dialects[name].toDialect(book.parameters).schema);
      expect(sent, name).not.toContain("x-toolwright");
      expect(sent, name).toContain("date-time");
    }
  });

  it("reach the function as Dates through invoke: nested, in arrays, optional, nullable, in a union", async () => {
    expect(JSON.parse((await book.invoke(args)).content as string)).toEqual(received);
    const more = {
      ...args,
      until: "2026-04-01T00:00:00Z",
      moved: "2026-02-01T08:00:00Z",
      hold: { start: args.at, end: args.at },
    };
    expect(JSON.parse((await book.invoke(more)).content as string)).toMatchObject({
      until: "Date(2026-04-01T00:00:00.000Z)",
      moved: "Date(2026-02-01T08:00:00.000Z)",
      hold: { start: "Date(2026-03-01T09:30:00.000Z)", end: "Date(2026-03-01T09:30:00.000Z)" },
    });
    // A caller may pass Dates: they travel as their ISO text and arrive as Dates again.
    const direct = { ...args, at: new Date("2026-03-01T09:30:00Z") };
    expect(JSON.parse((await book.invoke(direct)).content as string)).toEqual(received);
  });

  it("refuse date text that names no real moment, with its path", async () => {
    const bad = { ...args, event: { ...args.event, followUps: ["2026-02-31T10:00:00Z"] } };
    const failure = book.invoke(bad);
    await expect(failure).rejects.toBeInstanceOf(ToolArgumentError);
    await expect(failure).rejects.toMatchObject({
      issues: [
        {
          code: "invalid_value",
          path: "/event/followUps/0",
          message:
            '/event/followUps/0: must be a real date-time such as "2026-03-01T09:30:00Z", got "2026-02-31T10:00:00Z" (a string)',
        },
      ],
    });
    await expect(book.invoke({ ...args, at: "next Tuesday" })).rejects.toThrow(
      '/at: must be a valid date-time, got "next Tuesday" (a string)',
    );
  });

  it("reach the function as Dates in the agent loop", async () => {
    const model = FakeModel.script([
      { toolCalls: [{ name: book.name, args: JSON.stringify(args) }] },
      { toolCalls: [{ name: book.name, args: JSON.stringify({ ...args, at: "2026-13-01T00:00:00Z" }) }] },
      "Booked.",
    ]);
    const result = await new Agent({ name: "dates", model, tools: [book] }).run("Book the room.");
    const results = result.messages.filter((m): m is ToolResultMessage => m.role === "tool");
    expect(results.map((r) => r.outcome)).toEqual(["ok", "invalid_arguments"]);
    expect(JSON.parse(results[0]?.content ?? "")).toEqual(received);
    expect(results[1]?.content).toContain(
      '/at: must be a real date-time such as "2026-03-01T09:30:00Z", got "2026-13-01T00:00:00Z"',
    );
  });

  it("reach the function as Dates when served over MCP (child process, stdio)", async () => {
    const { tools } = await client.listTools();
    expect(JSON.stringify(tools)).not.toContain("x-toolwright");
    const ok = (await client.callTool({ name: book.name, arguments: args })) as CallToolResult;
    expect(ok.isError).toBeFalsy();
    expect(JSON.parse(ok.content.map((c) => (c.type === "text" ? c.text : "")).join(""))).toEqual(received);
    const bad = (await client.callTool({
      name: book.name,
      arguments: { ...args, hold: { start: "2026-03-01T24:00:00Z" } },
    })) as CallToolResult;
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toContain("/hold/start: must be a real date-time");
  });
});

describe("a Date tagged @format date (issue 27): a calendar day", () => {
  it("is a date string for the model and the day at midnight UTC for the function, through invoke", async () => {
    expect(stay.parameters.properties).toMatchObject({
      checkIn: { type: "string", format: "date" },
      checkOut: { type: "string", format: "date" },
      arrival: { type: "string", format: "date-time" },
    });
    const result = await stay.invoke({
      checkIn: "2026-05-01",
      checkOut: "2026-05-03",
      arrival: "2026-05-01T15:30:00Z",
    });
    expect(JSON.parse(result.content as string)).toEqual({
      checkIn: "2026-05-01",
      nights: 2,
      arrival: "2026-05-01T15:30:00.000Z",
      received: {
        checkIn: "Date(2026-05-01T00:00:00.000Z)",
        checkOut: "Date(2026-05-03T00:00:00.000Z)",
        arrival: "Date(2026-05-01T15:30:00.000Z)",
      },
    });
  });

  it("refuses a date-time where a day is asked, and a day that does not exist, at their paths", async () => {
    await expect(stay.invoke({ checkIn: "2026-05-01T00:00:00Z", checkOut: "2026-05-03" })).rejects.toMatchObject({
      issues: [{ code: "invalid_value", path: "/checkIn" }],
    });
    await expect(stay.invoke({ checkIn: "2026-05-01", checkOut: "2026-02-30" })).rejects.toThrow(
      '/checkOut: must be a real date such as "2026-03-01", got "2026-02-30" (a string)',
    );
  });
});
