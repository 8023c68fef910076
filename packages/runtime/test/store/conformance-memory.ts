import { describe, expect, it } from "vitest";
import { Agent, AgentConfigError, type ToolContext } from "../../src/index.js";
import { InMemoryStore } from "../../src/memory/index.js";
import { resumeRun, startRun, submitRun } from "../../src/store/index.js";
import { FakeModel } from "../../src/testing/index.js";
import { stringTool } from "../agent/helpers.js";
import type { Suite } from "./conformance.js";
import { serveUntil } from "./conformance-runs.js";

/**
 * An agent whose `note` tool remembers its argument and says what it found before, so a
 * run's transcript shows whose memory it saw; `note` needs approval when `approval`.
 */
function noteAgent(memory: InMemoryStore, scope: "user" | "session", options: { readonly approval?: boolean } = {}) {
  const note = stringTool(
    "note",
    async ({ id }, ctx: ToolContext) => {
      const before = await ctx.memory.recall("last");
      await ctx.memory.remember("last", id);
      return `before: ${before ?? "nothing"}`;
    },
    { needsApproval: options.approval ?? false },
  );
  // Answers from this run's part of the transcript: what follows the last user message.
  const turn = (request: { messages: readonly { role: string; content?: unknown }[] }) => {
    const asked = request.messages.findLastIndex((m) => m.role === "user");
    const result = request.messages.slice(asked).find((m) => m.role === "tool");
    const text = request.messages[asked]?.content as string;
    return result ? `Saw ${String(result.content)}` : { toolCalls: [{ name: "note", args: { id: text } }] };
  };
  const model = FakeModel.script(Array.from({ length: 100 }, () => turn));
  return new Agent({ name: `notes-${scope}`, model, tools: [note], memory: { store: memory, scope } });
}

/** Durable runs keep memory as `agent.run` does: by the user and the session stored with the run. */
export function memoryTests(suite: Suite): void {
  describe("memory in durable runs", () => {
    it("keys user memory by the userId stored with the run, on every worker that goes on with it", async () => {
      const [a, b] = await suite.twoHandles();
      const memory = new InMemoryStore();
      const first = await startRun(noteAgent(memory, "user"), "tea", { store: a, userId: "u-1", runId: "m-user-1" });
      expect(first.output).toBe("Saw before: nothing");
      expect(await a.get("m-user-1")).toMatchObject({ userId: "u-1", status: "completed" });
      // Queued for a worker elsewhere: the run brings its user along.
      await submitRun(noteAgent(memory, "user"), "coffee", { store: a, userId: "u-1", runId: "m-user-2" });
      await serveUntil(b, [noteAgent(memory, "user")], ["m-user-2"]);
      expect((await b.get("m-user-2"))?.output).toBe("Saw before: tea");
      // Paused on one worker, approved, resumed on another: still the same user.
      const paused = await startRun(noteAgent(memory, "user", { approval: true }), "juice", {
        store: a,
        userId: "u-1",
        runId: "m-user-3",
      });
      await b.approve("m-user-3", paused.interruptions[0]?.callId as string);
      const done = await resumeRun(noteAgent(memory, "user", { approval: true }), "m-user-3", { store: b });
      expect(done.output).toBe("Saw before: coffee");
      // Another user sees none of it.
      const other = await startRun(noteAgent(memory, "user"), "water", { store: a, userId: "u-2" });
      expect(other.output).toBe("Saw before: nothing");
    });

    it("keys session memory by the run's sessionId, so the session's runs share it (not by each run's id)", async () => {
      const store = await suite.open();
      const memory = new InMemoryStore();
      await startRun(noteAgent(memory, "session"), "tea", { store, sessionId: "m-session" });
      const second = await startRun(noteAgent(memory, "session"), "coffee", { store, sessionId: "m-session" });
      expect(second.output).toBe("Saw before: tea");
      // Without a session, a run's memory is its own, under its stored id on any worker.
      const alone = await startRun(noteAgent(memory, "session"), "juice", { store });
      expect(alone.output).toBe("Saw before: nothing");
    });

    it("stores a user-memory run given no userId as failed with the agent's advice, and never claims it again", async () => {
      const store = await suite.open();
      const agent = noteAgent(new InMemoryStore(), "user");
      await expect(startRun(agent, "tea", { store, runId: "m-no-user" })).rejects.toBeInstanceOf(AgentConfigError);
      expect(await store.get("m-no-user")).toMatchObject({
        status: "failed",
        error: expect.stringMatching(/^AgentConfigError: .*keeps memory per user.*userId/),
      });
      expect(await store.claimNext([agent], "w-any", 60_000)).toBeUndefined();
    });
  });
}
