import type { ToolContext, ToolLogger, ToolProgress } from "../invoke/context.js";
import { ignoreProgress } from "../invoke/run-tool.js";
import { toolFetch } from "../invoke/tool-fetch.js";
import { scopedMemory } from "../memory/memory.js";
import type { RunEnv } from "./env.js";
import { memoryRead } from "./policy-gate.js";
import type { LogLine } from "./types.js";

/**
 * Runs by their usage tally. The tally object is handed to every context of a run as is,
 * so it identifies the run even after `runTool` builds the context the tool receives;
 * that is how a sub-agent tool finds its parent.
 */
const runs = new WeakMap<object, RunEnv>();

/** Registers a run so its tools' contexts lead back to it. */
export function linkRun(env: RunEnv): void {
  runs.set(env.snapshot.usage, env);
}

/** The run a context belongs to, when the loop made it. */
export function parentRun(ctx: ToolContext<unknown>): RunEnv | undefined {
  return runs.get(ctx.usage);
}

/** The context a tool (or an approval predicate, or a hook) receives for one call. */
export function makeContext(
  env: RunEnv,
  callId: string,
  toolName: string,
  step: number,
  attempt: number,
  signal: AbortSignal,
  logs: LogLine[],
  progress: ToolProgress = ignoreProgress,
): ToolContext<never> {
  const { memory } = env.config;
  return {
    deps: env.deps as never,
    runId: env.snapshot.runId,
    callId,
    toolName,
    step,
    attempt,
    signal,
    usage: env.snapshot.usage,
    log: logger(logs),
    progress,
    fetch: toolFetch(env.config.policy, signal),
    memory: scopedMemory(memory.store, env.memoryScope ?? `session:${env.snapshot.runId}`, memory.maxChars, () =>
      memoryRead(env, toolName),
    ),
  };
}

function logger(lines: LogLine[]): ToolLogger {
  const at =
    (level: LogLine["level"]) =>
    (message: string, data?: unknown): void => {
      lines.push(data === undefined ? { level, message } : { level, message, data });
    };
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}
