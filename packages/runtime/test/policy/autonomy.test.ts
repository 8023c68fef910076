import { describe, expect, it } from "vitest";
import { Agent, AgentConfigError, type ApprovalTier, type ToolOptions } from "../../src/index.js";
import { FakeModel } from "../../src/testing/index.js";
import { stringTool } from "../agent/helpers.js";

const CALLS = {
  toolCalls: [
    { id: "c_read", name: "lookup", args: { id: "A-1" } },
    { id: "c_plain", name: "archive", args: { id: "A-1" } },
    { id: "c_destroy", name: "purge", args: { id: "A-1" } },
    { id: "c_own", name: "refund", args: { id: "A-1" } },
  ],
};

function agent(approve: ApprovalTier | undefined, runs: string[]) {
  const make = (name: string, options: ToolOptions) =>
    stringTool(
      name,
      () => {
        runs.push(name);
        return "ok";
      },
      options,
    );
  return new Agent({
    name: "desk",
    model: FakeModel.script([CALLS, "Done."]),
    ...(approve ? { approve } : {}),
    tools: [
      make("lookup", { readOnly: true }),
      make("archive", {}),
      make("purge", { destructive: true }),
      // Asks for approval itself, whatever the tier.
      make("refund", { readOnly: false, needsApproval: true }),
    ],
  });
}

describe("autonomy tiers", () => {
  it.each([
    [undefined, ["c_own"]],
    ["never", ["c_own"]],
    ["destructive", ["c_destroy", "c_own"]],
    ["side-effects", ["c_plain", "c_destroy", "c_own"]],
    ["always", ["c_read", "c_plain", "c_destroy", "c_own"]],
  ] as const)("approve: %s pauses %j", async (tier, paused) => {
    const runs: string[] = [];
    const result = await agent(tier, runs).run("Clean up A-1.");
    expect(result.interruptions.map((i) => i.callId)).toEqual(paused);
    // The calls the tier lets through ran while the others wait.
    const waiting = new Set(result.interruptions.map((i) => i.toolName));
    expect(runs.sort()).toEqual(["archive", "lookup", "purge", "refund"].filter((n) => !waiting.has(n)));
  });

  it("says why the tier asks, and nothing when only the tool asked", async () => {
    const strict = await agent("side-effects", []).run("Clean up A-1.");
    expect(strict.interruptions[0]?.reason).toBe(
      "archive is not marked readOnly and this agent approves every tool with side effects.",
    );
    const result = await agent("destructive", []).run("Clean up A-1.");
    expect(result.interruptions.map((i) => [i.toolName, i.reason])).toEqual([
      ["purge", "purge is destructive and this agent approves destructive tools."],
      ["refund", undefined],
    ]);
  });

  it("runs a paused destructive call once approved", async () => {
    const runs: string[] = [];
    const desk = agent("destructive", runs);
    const paused = await desk.run("Clean up A-1.");
    paused.state?.approve("c_destroy").reject("c_own", "No refunds today.");
    const done = await desk.run(paused.state as NonNullable<typeof paused.state>);
    expect(runs.sort()).toEqual(["archive", "lookup", "purge"]);
    expect(done.output).toBe("Done.");
  });

  it("refuses an unknown tier at configuration", () => {
    const bad = () => new Agent({ name: "desk", model: FakeModel.script([]), approve: "sometimes" as ApprovalTier });
    expect(bad).toThrow(AgentConfigError);
    expect(bad).toThrow(
      'agent "desk": approve must be "never", "destructive", "side-effects" or "always", got "sometimes".',
    );
  });
});
