import { egressRefusal as refusalOf } from "../policy/egress-argument.js";
import { touch } from "../policy/trifecta.js";
import { type PolicyVerdict, policyVerdict as verdictOf } from "../policy/verdict.js";
import type { Tool, ToolArgs } from "../tools/tool-types.js";
import type { RunEnv } from "./env.js";

/** The agent's policy on a new call of this run (policy/verdict.ts). */
export function policyVerdict(env: RunEnv, tool: Tool, args: ToolArgs): PolicyVerdict {
  return verdictOf(
    { policy: env.config.policy, touched: env.snapshot.touched, egressCheck: env.egressCheck },
    tool,
    args,
  );
}

/** Why the URL argument of an egress tool is refused, or undefined when the allowlist has it (or the tool has none). */
export function egressRefusal(env: RunEnv, tool: Tool, args: ToolArgs): string | undefined {
  return refusalOf(env.egressCheck, tool, args);
}

/** Counts text a tool read back from memory as untrusted content in the run. */
export function memoryRead(env: RunEnv, toolName: string): void {
  env.snapshot.touched.untrusted_content ??= toolName;
}

/** Records what a call that is about to run touches, so later calls of the run are judged with it. */
export function admitCall(env: RunEnv, tool: Tool): void {
  touch(env.snapshot.touched, tool);
}
