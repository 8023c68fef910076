// Process B: loads the saved state, approves the waiting call and finishes the run.
import { readFileSync } from "node:fs";
import { RunState } from "toolwright";
import { FakeModel } from "toolwright/testing";
import { supportAgent } from "./support-agent.mjs";

const [dir] = process.argv.slice(2);
const model = FakeModel.script([
  (request) => {
    const results = request.messages.filter((m) => m.role === "tool").map((m) => `${m.toolName}:${m.outcome}`);
    return `Done (${results.join(", ")}).`;
  },
]);
const agent = supportAgent(model, dir);
const state = RunState.fromJSON(agent, readFileSync(`${dir}/state.json`, "utf8"));
for (const i of state.interruptions) state.approve(i.callId);
const result = await agent.run(state);
console.log(JSON.stringify({ pid: process.pid, status: result.status, output: result.output, runId: result.runId }));
