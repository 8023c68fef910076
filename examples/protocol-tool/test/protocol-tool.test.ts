import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Agent } from "toolwright";
import { FakeModel } from "toolwright/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
let out: string;
let helpAgent: (model: FakeModel) => Agent;

beforeAll(async () => {
  // Built for real into a folder of this run's own (git-ignored, so "toolwright" still
  // resolves from the example), never into the shared dist/: two runs at once cannot collide.
  mkdirSync(`${root}.tmp`, { recursive: true });
  out = mkdtempSync(`${root}.tmp/test-build-`);
  execFileSync(`${root}node_modules/.bin/tspc`, ["-p", "tsconfig.build.json", "--outDir", out], {
    cwd: root,
    stdio: "pipe",
  });
  ({ helpAgent } = await import(`${out}/agent.js`));
});

afterAll(() => {
  rmSync(out, { recursive: true, force: true });
});

describe("a protocol-object tool", () => {
  it("is offered and run like any tool: validated against its own schema, result checked and serialized", async () => {
    const model = FakeModel.script([
      { toolCalls: [{ name: "searchDocs", args: { query: "reset password" } }] },
      { toolCalls: [{ name: "readArticle", args: { id: "kb-1" } }] },
      "Open Settings, then Security (kb-1).",
    ]);
    const result = await helpAgent(model).run("How do I reset my password?");
    const tools = model.requests[0]?.tools ?? [];
    expect(tools.map((t) => t.name)).toEqual(["readArticle", "searchDocs"]);
    expect(tools[1]?.description).toBe(
      "Search the 3 product help articles by keywords; returns up to 2 hits, best first.",
    );
    expect(tools[0]?.parameters).toMatchObject({ properties: { id: { type: "string" } }, required: ["id"] });
    const hits = JSON.parse(model.requests[1]?.messages.at(-1)?.content ?? "[]");
    expect(hits[0]).toEqual({ id: "kb-1", title: "Reset your password", score: 2 });
    expect(hits.length).toBeLessThanOrEqual(2);
    expect(model.requests[2]?.messages.at(-1)?.content).toMatch(/^Reset your password\n\nOpen Settings/);
    expect(result.steps[0]?.calls[0]?.logs?.[0]).toMatchObject({ level: "debug", message: "search" });
  });

  it("gets the same argument checks as compiled tools: a limit over its maximum is refused by name", async () => {
    const model = FakeModel.script([
      { toolCalls: [{ name: "searchDocs", args: { query: "email", limit: 5 } }] },
      { toolCalls: [{ name: "searchDocs", args: { query: "zzz" } }] },
      "done",
    ]);
    await helpAgent(model).run("email?");
    const first = model.requests[1]?.messages.at(-1);
    expect(first).toMatchObject({ role: "tool", outcome: "invalid_arguments" });
    expect(first?.content).toMatch(/limit/);
    expect(model.requests[2]?.messages.at(-1)).toMatchObject({
      outcome: "tool_error",
      content: 'Nothing matches "zzz"; try fewer or other keywords.',
    });
  });
});
