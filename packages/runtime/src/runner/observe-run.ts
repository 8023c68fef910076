import type { ToolContext } from "../invoke/context.js";
import type { RunEnv } from "./env.js";
import type { RunEnding, RunListener, RunObserver, RunStart } from "./observer.js";
import type { AgentStreamEvent, RunResult } from "./run-result.js";
import { parentRun } from "./tool-context.js";

/** The observers of each run in progress, so a sub-agent's run reaches its parent's observers. */
const observersOf = new WeakMap<RunEnv, readonly RunObserver[]>();

/**
 * The observers of a run: the agent's own and those of the run whose tool call started
 * this one (`caller`). None means nobody but a stream reads the run's events.
 */
export function runObservers(
  own: readonly RunObserver[],
  caller: ToolContext<unknown> | undefined,
): readonly RunObserver[] {
  const parentEnv = caller ? parentRun(caller) : undefined;
  const inherited = (parentEnv && observersOf.get(parentEnv)) ?? [];
  if (inherited.length === 0) return own.length < 2 ? own : [...new Set(own)];
  return [...new Set([...own, ...inherited])];
}

/**
 * The run's events as its listeners (of `observers`, from {@link runObservers}) see them.
 * Without observers, the loop's own generator is returned untouched, so an unobserved run
 * pays nothing.
 */
export function observeRun(
  env: RunEnv,
  events: AsyncGenerator<AgentStreamEvent, RunResult>,
  observers: readonly RunObserver[],
  caller: ToolContext<unknown> | undefined,
): AsyncGenerator<AgentStreamEvent, RunResult> {
  if (observers.length === 0) return events;
  observersOf.set(env, observers);
  const start: RunStart = {
    agentName: env.config.name,
    runId: env.snapshot.runId,
    modelId: env.model.id,
    instructions: env.config.instructions,
    tools: env.config.definitions,
    messages: env.snapshot.messages.slice(),
    resumed: env.snapshot.step > 0,
    previousSteps: env.snapshot.steps.slice(),
    depth: env.depth,
    ...(caller ? { parent: { runId: caller.runId, callId: caller.callId, toolName: caller.toolName } } : {}),
  };
  const listeners = observers.flatMap((o) => quietly(() => o.run?.(start)) ?? []);
  return listeners.length ? relay(events, listeners) : events;
}

async function* relay(
  events: AsyncGenerator<AgentStreamEvent, RunResult>,
  listeners: readonly RunListener[],
): AsyncGenerator<AgentStreamEvent, RunResult> {
  const end = (ending: RunEnding) => {
    for (const l of listeners) quietly(() => l.end(ending));
  };
  let ended = false;
  try {
    for (;;) {
      const next = await events.next();
      if (next.done) {
        ended = true;
        end({ result: next.value });
        return next.value;
      }
      for (const l of listeners) quietly(() => l.event?.(next.value));
      yield next.value;
    }
  } catch (error) {
    ended = true;
    end({ error });
    throw error;
  } finally {
    if (!ended) {
      // The consumer stopped reading a stream: close the loop as `yield*` would have.
      end({ error: new Error("the run's events stopped being read before it ended") });
      await events.return(undefined as never);
    }
  }
}

/** Runs an observer's code; a failing observer must never fail what it watches. */
export function quietly<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}
