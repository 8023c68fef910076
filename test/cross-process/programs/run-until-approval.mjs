// Process A: runs until the cancel waits for approval, then saves the state and exits.
import { writeFileSync } from "node:fs";
import { FakeModel } from "toolwright/testing";
import { supportAgent } from "./support-agent.mjs";

const [dir] = process.argv.slice(2);
const model = FakeModel.script([
  {
    text: "Checking, then cancelling.",
    toolCalls: [
      { name: "lookupOrder", args: { id: "A-771" } },
      { name: "cancelOrder", args: { id: "A-771" } },
    ],
  },
]);
const result = await supportAgent(model, dir).run("Cancel order A-771, please.");
if (result.status !== "interrupted" || !result.state) throw new Error(`expected an interruption, got ${result.status}`);
writeFileSync(`${dir}/state.json`, result.state.toString());
console.log(JSON.stringify({ pid: process.pid, interruptions: result.interruptions }));
