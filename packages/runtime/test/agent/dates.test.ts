import { describe, expect, it } from "vitest";
import { Agent, RunState, tool } from "../../src/index.js";
import { FakeModel } from "../../src/testing/index.js";
import { DATE_KEYWORD } from "../../src/tools/spec.js";

/** A tool taking one `Date` (as the compiler writes it), recording what its function received. */
function remind(options: { needsApproval?: boolean } = {}) {
  const received: unknown[] = [];
  const t = tool({
    name: "remind",
    description: "Set a reminder at a moment.",
    parameters: {
      type: "object",
      properties: { at: { type: "string", format: "date-time", [DATE_KEYWORD]: true } },
      required: ["at"],
      additionalProperties: false,
    },
    execute: (args: Record<string, unknown>) => {
      received.push(args.at);
      return "set";
    },
    ...options,
  });
  return { t, received };
}

const at = (iso: string) => ({ name: "remind", args: { at: iso } });

describe("Date arguments in the agent loop (issue 11)", () => {
  it("counts calls with different dates as different calls, not as repeats", async () => {
    const { t, received } = remind();
    const model = FakeModel.script([
      { toolCalls: [at("2026-03-01T09:00:00Z")] },
      { toolCalls: [at("2026-03-02T09:00:00Z")] },
      { toolCalls: [at("2026-03-03T09:00:00Z")] },
      "done",
    ]);
    const agent = new Agent({ name: "dates", model, tools: [t], repeatedCalls: { limit: 2, action: "fail" } });
    const result = await agent.run("Remind me three times.");
    expect(result.output).toBe("done");
    expect(received).toEqual([
      new Date("2026-03-01T09:00:00Z"),
      new Date("2026-03-02T09:00:00Z"),
      new Date("2026-03-03T09:00:00Z"),
    ]);
  });

  it("gives the approval predicate a Date, and resumes a saved state with the Date intact", async () => {
    const seen: unknown[] = [];
    const first = remind();
    const gated = tool({
      ...first.t,
      needsApproval: (_ctx, args) => {
        seen.push(args.at);
        return true;
      },
    });
    const agent = new Agent({
      name: "dates",
      model: FakeModel.script([{ toolCalls: [at("2026-03-01T09:00:00+01:00")] }, "done"]),
      tools: [gated],
    });
    const paused = await agent.run("Remind me.");
    expect(seen).toEqual([new Date("2026-03-01T08:00:00Z")]);
    const json = (paused.state as RunState).toString();

    const again = remind();
    const resumed = new Agent({ name: "dates", model: FakeModel.script(["done"]), tools: [again.t] });
    const state = RunState.fromJSON(resumed, json);
    state.approve(paused.interruptions[0]?.callId as string);
    expect((await resumed.run(state)).output).toBe("done");
    expect(again.received).toEqual([new Date("2026-03-01T08:00:00Z")]);
  });
});
