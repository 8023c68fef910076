import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  Agent,
  RUN_STATE_VERSION,
  RunState,
  RunStateError,
  type ToolArgs,
  ToolArgumentError,
} from "../../src/index.js";
import { FakeModel } from "../../src/testing/index.js";
import { stringTool } from "./helpers.js";

function orders(needsApproval: boolean | ((ctx: unknown, args: ToolArgs) => boolean) = true) {
  const cancelled: Array<{ id: string; callId: string }> = [];
  const lookups: string[] = [];
  const lookup = stringTool(
    "lookup",
    ({ id }) => {
      lookups.push(id);
      return { id, status: "open" };
    },
    { readOnly: true },
  );
  const cancel = stringTool(
    "cancel",
    ({ id }, ctx) => {
      cancelled.push({ id, callId: ctx.callId });
      return `cancelled ${id}`;
    },
    { needsApproval, destructive: true },
  );
  return { lookup, cancel, cancelled, lookups };
}

const turn = {
  toolCalls: [
    { name: "lookup", args: { id: "A-1" } },
    { name: "cancel", args: { id: "A-1" } },
    { name: "cancel", args: { id: "A-2" } },
  ],
};

describe("approvals", () => {
  it("stops with interruptions; ungated calls of the turn run once, gated ones wait", async () => {
    const o = orders();
    const model = FakeModel.script([turn, "Both cancelled."]);
    const agent = new Agent({ name: "support", model, tools: [o.lookup, o.cancel] });
    const paused = await agent.run("cancel A-1 and A-2");
    expect(paused.status).toBe("interrupted");
    expect(paused.output).toBeUndefined();
    expect(paused.interruptions).toEqual([
      { callId: "call_1_1", toolName: "cancel", args: { id: "A-1" } },
      { callId: "call_1_2", toolName: "cancel", args: { id: "A-2" } },
    ]);
    expect(Object.isFrozen(paused.interruptions[0]?.args)).toBe(true);
    expect(o.lookups).toEqual(["A-1"]);
    expect(o.cancelled).toEqual([]);

    paused.state?.approve("call_1_1").reject("call_1_2", "A-2 belongs to another customer.");
    const done = await agent.run(paused.state as RunState);
    expect(done.output).toBe("Both cancelled.");
    expect(o.lookups).toEqual(["A-1"]); // finished calls never run again
    expect(o.cancelled).toEqual([{ id: "A-1", callId: "call_1_1" }]);
    const results = model.requests[1]?.messages.filter((m) => m.role === "tool") ?? [];
    expect(results.map((m) => [m.callId, m.outcome])).toEqual([
      ["call_1_0", "ok"],
      ["call_1_1", "ok"],
      ["call_1_2", "rejected"],
    ]);
    expect(results[2]?.content).toBe("Not run: A-2 belongs to another customer.");
    expect(done.runId).toBe(paused.runId);
  });

  it("asks a predicate with the validated, frozen arguments that would run", async () => {
    const seen: ToolArgs[] = [];
    const o = orders((_ctx, args) => {
      seen.push(args);
      return args.id === "A-2";
    });
    const model = FakeModel.script([turn, "ok"]);
    const paused = await new Agent({ name: "support", model, tools: [o.lookup, o.cancel] }).run("go");
    expect(paused.interruptions.map((i) => i.args)).toEqual([{ id: "A-2" }]);
    expect(seen.every((a) => Object.isFrozen(a))).toBe(true);
    expect(o.cancelled.map((c) => c.id)).toEqual(["A-1"]);
  });

  it("runs edited arguments, validated again, and refuses edits that do not fit the schema", async () => {
    const o = orders();
    const agent = new Agent({ name: "support", model: FakeModel.script([turn, "ok"]), tools: [o.lookup, o.cancel] });
    const paused = await agent.run("go");
    const state = paused.state as RunState;
    expect(() => state.approve("call_1_1", { args: { id: 42 } })).toThrow(ToolArgumentError);
    expect(() => state.approve("call_1_1", { args: { order: "A-1" } })).toThrow(/order/);
    state.approve("call_1_1", { args: { id: "A-1-edited" } }).approve("call_1_2");
    await agent.run(state);
    expect(o.cancelled.map((c) => c.id)).toEqual(["A-1-edited", "A-2"]);
  });

  it("keeps interrupting for calls still undecided, and names the waiting ids for an unknown one", async () => {
    const o = orders();
    const agent = new Agent({ name: "support", model: FakeModel.script([turn, "ok"]), tools: [o.lookup, o.cancel] });
    const paused = await agent.run("go");
    expect(() => paused.state?.approve("call_9")).toThrow(/no call "call_9" is waiting.*call_1_1, call_1_2/);
    paused.state?.approve("call_1_1");
    const again = await agent.run(paused.state as RunState);
    expect(again.interruptions.map((i) => i.callId)).toEqual(["call_1_2"]);
    expect(o.cancelled).toHaveLength(1);
    again.state?.approve("call_1_2");
    const done = await agent.run(again.state as RunState);
    expect(done.status).toBe("completed");
    expect(o.cancelled.map((c) => c.id)).toEqual(["A-1", "A-2"]);
  });

  it("refuses to resume the same state object twice, so no call runs twice", async () => {
    const o = orders();
    const agent = new Agent({
      name: "support",
      model: FakeModel.script([turn, "ok", "ok"]),
      tools: [o.lookup, o.cancel],
    });
    const paused = await agent.run("go");
    paused.state?.approve("call_1_1").approve("call_1_2");
    await agent.run(paused.state as RunState);
    await expect(agent.run(paused.state as RunState)).rejects.toThrow(/already resumed/);
    expect(o.cancelled).toHaveLength(2);
  });
});

describe("run state serialization", () => {
  async function pausedState(secret?: string) {
    const o = orders();
    const agent = new Agent({
      name: "support",
      model: FakeModel.script([turn, "done"]),
      tools: [o.lookup, o.cancel],
      ...(secret ? { stateSecret: secret } : {}),
    });
    const paused = await agent.run("go");
    return { agent, o, json: (paused.state as RunState).toString() };
  }

  it("round-trips through JSON and resumes on a fresh agent (another process in practice)", async () => {
    const { json, o } = await pausedState();
    const parsed = JSON.parse(json);
    expect(parsed).toMatchObject({
      format: "toolwright.run-state",
      version: RUN_STATE_VERSION,
      agent: { name: "support", tools: ["cancel", "lookup"] },
    });
    const fresh = orders();
    const agent2 = new Agent({
      name: "support",
      model: FakeModel.script(["done"]),
      tools: [fresh.lookup, fresh.cancel],
    });
    const state = RunState.fromJSON(agent2, json);
    state.approve("call_1_1").approve("call_1_2");
    const done = await agent2.run(state);
    expect(done.output).toBe("done");
    expect(fresh.lookups).toEqual([]);
    expect(o.cancelled).toEqual([]);
    expect(fresh.cancelled.map((c) => c.callId)).toEqual(["call_1_1", "call_1_2"]);
  });

  it("refuses a tampered state", async () => {
    const { agent, json } = await pausedState();
    const tampered = json.replace('"id":"A-2"', '"id":"A-3"');
    expect(tampered).not.toBe(json);
    expect(() => RunState.fromJSON(agent, tampered)).toThrow(RunStateError);
    expect(() => RunState.fromJSON(agent, tampered)).toThrow(/integrity check/);
  });

  it("refuses a state of another agent, or of the same name with other tools", async () => {
    const { json } = await pausedState();
    const o = orders();
    const other = new Agent({ name: "billing", model: FakeModel.script([]), tools: [o.lookup, o.cancel] });
    expect(() => RunState.fromJSON(other, json)).toThrow(/belongs to agent "support", not "billing"/);
    const fewer = new Agent({ name: "support", model: FakeModel.script([]), tools: [o.lookup] });
    expect(() => RunState.fromJSON(fewer, json)).toThrow(/saved with tools \[cancel, lookup\]/);
  });

  it("signs with an HMAC secret: refused unsigned, without the secret, or with another secret", async () => {
    const { agent, json } = await pausedState("s3cret");
    expect(JSON.parse(json).integrity).toMatch(/^hmac-sha256:/);
    expect(() => RunState.fromJSON(agent, json)).not.toThrow();
    const o = orders();
    const noSecret = new Agent({ name: "support", model: FakeModel.script([]), tools: [o.lookup, o.cancel] });
    expect(() => RunState.fromJSON(noSecret, json)).toThrow(/signed but no secret was given/);
    expect(() => RunState.fromJSON(noSecret, json, { secret: "wrong" })).toThrow(/integrity check/);
    expect(() => RunState.fromJSON(noSecret, json, { secret: "s3cret" })).not.toThrow();
    const unsigned = (await pausedState()).json;
    expect(() => RunState.fromJSON(agent, unsigned)).toThrow(/not signed but a secret is expected/);
  });

  it("refuses what is not a run state, and a newer version", () => {
    const o = orders();
    const agent = new Agent({ name: "support", model: FakeModel.script([]), tools: [o.lookup, o.cancel] });
    expect(() => RunState.fromJSON(agent, "{oops")).toThrow(/not JSON/);
    expect(() => RunState.fromJSON(agent, "{}")).toThrow(/not a toolwright run state/);
    const future = JSON.stringify({ format: "toolwright.run-state", version: 99 });
    expect(() => RunState.fromJSON(agent, future)).toThrow(/version 99 is newer/);
  });

  it("keeps loading the version 1 format (fixture)", async () => {
    const json = readFileSync(new URL("./fixtures/run-state-v1.json", import.meta.url), "utf8");
    const o = orders();
    const agent = new Agent({
      name: "support",
      model: FakeModel.script(["Cancelled A-1."]),
      tools: [o.lookup, o.cancel],
    });
    const state = RunState.fromJSON(agent, json);
    expect(state.interruptions).toEqual([{ callId: "call_1_1", toolName: "cancel", args: { id: "A-1" } }]);
    state.approve("call_1_1");
    const done = await agent.run(state);
    expect(done.output).toBe("Cancelled A-1.");
    expect(o.lookups).toEqual([]);
    expect(o.cancelled.map((c) => c.id)).toEqual(["A-1"]);
  });
});

describe("a protocol tool gated by its flags", () => {
  it("waits for a person when only flags.needsApproval is set, and runs once approved", async () => {
    const wiped: string[] = [];
    // A plain object following the Tool protocol: no needsApproval option, only the flag.
    const wipe = {
      name: "wipe",
      description: "Deletes every file of a customer.",
      parameters: {
        type: "object",
        properties: { id: { type: "string" } },
        required: ["id"],
        additionalProperties: false,
      },
      flags: { destructive: true, needsApproval: true },
      execute: (args: ToolArgs) => {
        wiped.push(String(args.id));
        return "wiped";
      },
    };
    const agent = new Agent({
      name: "support",
      model: FakeModel.script([{ toolCalls: [{ name: "wipe", args: { id: "C-9" } }] }, "Done."]),
      tools: [wipe],
    });
    const paused = await agent.run("wipe C-9");
    expect(paused.status).toBe("interrupted");
    expect(paused.interruptions).toEqual([{ callId: "call_1_0", toolName: "wipe", args: { id: "C-9" } }]);
    expect(wiped).toEqual([]);
    paused.state?.approve("call_1_0");
    const done = await agent.run(paused.state as RunState);
    expect(done.output).toBe("Done.");
    expect(wiped).toEqual(["C-9"]);
  });
});

describe("an approval predicate that throws", () => {
  it("fails closed: the call waits for a person instead of running", async () => {
    const o = orders(() => {
      throw new Error("policy service down");
    });
    const paused = await new Agent({
      name: "support",
      model: FakeModel.script([turn, "ok"]),
      tools: [o.lookup, o.cancel],
    }).run("go");
    expect(paused.interruptions.map((i) => i.callId)).toEqual(["call_1_1", "call_1_2"]);
    expect(o.cancelled).toEqual([]);
  });
});

describe("the version 1 signed fixture", () => {
  it("keeps loading with its secret, with a decision already made, and runs only what is left", async () => {
    const json = readFileSync(new URL("./fixtures/run-state-v1-signed.json", import.meta.url), "utf8");
    const o = orders();
    const agent = new Agent({
      name: "support",
      model: FakeModel.script(["Cancelled A-1; A-2 stays."]),
      tools: [o.lookup, o.cancel],
      stateSecret: "fixture-secret",
    });
    const state = RunState.fromJSON(agent, json);
    // call_1_1 was approved before the state was saved; call_1_2 still waits.
    expect(state.interruptions.map((i) => i.callId)).toEqual(["call_1_2"]);
    state.reject("call_1_2", "not this one");
    const done = await agent.run(state);
    expect(done.output).toBe("Cancelled A-1; A-2 stays.");
    expect(o.lookups).toEqual([]);
    expect(o.cancelled.map((c) => c.id)).toEqual(["A-1"]);
    expect(() => RunState.fromJSON(agent, json, { secret: "other" })).toThrow(RunStateError);
  });
});
