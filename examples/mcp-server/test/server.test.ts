import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { type CallToolResult, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The example as an MCP host uses it: built with tspc (tsc + the transformer), then
 * launched as `node <out>/server.js` and spoken to over stdio by the official SDK client.
 */
const root = path.resolve(import.meta.dirname, "..");
// A build folder of this run's own (git-ignored, so dependencies still resolve from the
// example), never the shared dist/: two runs at once cannot collide.
let out: string;
const clients: Client[] = [];

async function launch(approve?: boolean): Promise<Client> {
  const client = new Client(
    { name: "example-test", version: "1.0.0" },
    approve === undefined ? undefined : { capabilities: { elicitation: { form: {} } } },
  );
  if (approve !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, () =>
      approve ? { action: "accept", content: { approve: true } } : { action: "decline" },
    );
  }
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [path.join(out, "server.js")], stderr: "pipe" }),
  );
  clients.push(client);
  return client;
}

function text(result: Awaited<ReturnType<Client["callTool"]>>): string {
  return (result as CallToolResult).content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

beforeAll(() => {
  mkdirSync(path.join(root, ".tmp"), { recursive: true });
  out = mkdtempSync(path.join(root, ".tmp", "test-build-"));
  const tspc = path.join(root, "node_modules/ts-patch/bin/tspc.js");
  execFileSync(process.execPath, [tspc, "-p", "tsconfig.build.json", "--outDir", out], { cwd: root, stdio: "pipe" });
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  rmSync(out, { recursive: true, force: true });
});

describe("examples/mcp-server", () => {
  it("lists the notes tools with schemas written from the TypeScript signatures and TSDoc", async () => {
    const client = await launch();
    expect(client.getServerVersion()).toMatchObject({ name: "notes", version: "0.1.0" });
    expect(client.getInstructions()).toMatch(/Search before deleting/);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["addNote", "searchNotes", "deleteNote", "countWords"]);
    const add = tools.find((t) => t.name === "addNote");
    expect(add?.description).toBe("Save a new note and return it with its id.");
    expect(add?.inputSchema).toMatchObject({
      type: "object",
      properties: {
        title: { type: "string", description: 'A short title, e.g. "Groceries".' },
        body: { type: "string" },
        tags: { type: "array", items: { type: "string" }, default: [] },
      },
      required: ["title", "body"],
      additionalProperties: false,
    });
    expect(add?.annotations).toEqual({ readOnlyHint: false, destructiveHint: false, openWorldHint: false });
    expect(tools.find((t) => t.name === "searchNotes")?.annotations).toEqual({
      readOnlyHint: true,
      openWorldHint: false,
    });
    expect(tools.find((t) => t.name === "deleteNote")?.annotations).toEqual({
      destructiveHint: true,
      openWorldHint: false,
    });
    expect(tools.find((t) => t.name === "countWords")?.outputSchema).toMatchObject({
      type: "object",
      properties: { words: { type: "number" }, characters: { type: "number" } },
    });
  });

  it("adds, finds and counts notes, with structuredContent", async () => {
    const client = await launch();
    const added = await client.callTool({
      name: "addNote",
      arguments: { title: "Groceries", body: "milk, eggs", tags: ["home"] },
    });
    expect(added.structuredContent).toMatchObject({ id: "n1", title: "Groceries", tags: ["home"] });
    const found = await client.callTool({ name: "searchNotes", arguments: { query: "MILK" } });
    expect(found.structuredContent).toMatchObject({ result: [{ id: "n1", body: "milk, eggs" }] });
    const counted = await client.callTool({ name: "countWords", arguments: { text: "two words" } });
    expect(counted.structuredContent).toEqual({ words: 2, characters: 9 });
  });

  it("tells the model what is wrong with its arguments", async () => {
    const client = await launch();
    const result = await client.callTool({ name: "addNote", arguments: { title: "x", text: "y" } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('unexpected key "text"');
    expect(text(result)).toContain('missing required key "body"');
  });

  it("deletes only with a person's approval", async () => {
    const refused = await launch();
    await refused.callTool({ name: "addNote", arguments: { title: "a", body: "b" } });
    const noAsk = await refused.callTool({ name: "deleteNote", arguments: { id: "n1" } });
    expect(noAsk.isError).toBe(true);
    expect(text(noAsk)).toMatch(/needs a person's approval/);

    const approving = await launch(true);
    await approving.callTool({ name: "addNote", arguments: { title: "a", body: "b" } });
    const deleted = await approving.callTool({ name: "deleteNote", arguments: { id: "n1" } });
    expect(deleted.structuredContent).toEqual({ deleted: "n1" });
    const again = await approving.callTool({ name: "deleteNote", arguments: { id: "n1" } });
    expect(text(again)).toBe('No note "n1". Search first to find the note\'s id.');
  });
});
