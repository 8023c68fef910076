import { Retry, ToolError } from "../errors.js";
import type { ToolContext } from "../invoke/context.js";
import type { Tool, ToolArgs } from "../tools/tool-types.js";
import type { RecordedOutcome } from "./run-store.js";

/** Where a recorded tool writes each attempt, and reads what earlier workers recorded. */
export interface CallJournal {
  readonly runId: string;
  readonly sessionId: string | undefined;
  /** What an earlier worker recorded for this attempt, when it finished. */
  finishedOutcome(callKey: string, attempt: number): RecordedOutcome | undefined;
  started(callKey: string, attempt: number): Promise<void>;
  /** `signal` is the call's: its time limit aborting it while the end is being written stops the run. */
  finished(callKey: string, attempt: number, outcome: RecordedOutcome, signal: AbortSignal): Promise<void>;
}

/**
 * The tool with its body recorded: an attempt that finished on any worker gives its
 * recorded outcome again instead of running; otherwise the attempt is recorded as started
 * before the body runs and as finished after, so a body runs at most once per attempt.
 * The rest of the call (serialization, caps, hooks) runs again as usual on resume.
 *
 * Recording is the journal's business, never the call's: a write that cannot be made stops
 * the run (the journal aborts it) before it throws here, so the loop sees an aborted run,
 * and the model is never told that a call failed because the store did.
 */
export function recordedTool(tool: Tool, journal: CallJournal): Tool {
  const recorded: Tool = Object.create(tool);
  Object.defineProperty(recorded, "execute", {
    value: async (args: ToolArgs, ctx: ToolContext<never>): Promise<unknown> => {
      const callKey = `${ctx.step}:${ctx.callId}`;
      const earlier = journal.finishedOutcome(callKey, ctx.attempt);
      if (earlier) return replay(earlier);
      await journal.started(callKey, ctx.attempt);
      // Stopped while its start was being written: the body does not run (a resume sees it started).
      ctx.signal.throwIfAborted();
      const context = {
        ...ctx,
        // Of the call, not of the attempt: every attempt, resume and worker hands the same key.
        idempotencyKey: `${journal.runId}:${callKey}`,
        ...(journal.sessionId === undefined ? {} : { sessionId: journal.sessionId }),
      };
      let value: unknown;
      try {
        value = await tool.execute(args, context);
      } catch (error) {
        // Thrown because the call was stopped (timeout, the run's signal): whether it took
        // effect is unknown, so it stays "started" and a resume treats it as such.
        if (!ctx.signal.aborted) await journal.finished(callKey, ctx.attempt, { error: describe(error) }, ctx.signal);
        throw error;
      }
      await journal.finished(callKey, ctx.attempt, { value: JSON.stringify(value) ?? null }, ctx.signal);
      return value;
    },
  });
  return recorded;
}

function describe(error: unknown): { name: string; message: string; retryable?: boolean } {
  if (error instanceof ToolError) return { name: "ToolError", message: error.message, retryable: error.retryable };
  if (error instanceof Retry) return { name: "Retry", message: error.hint };
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: "Error", message: String(error) };
}

/** Gives a recorded outcome back as the body gave it: the value, or the same kind of error. */
function replay(outcome: RecordedOutcome): unknown {
  if ("value" in outcome) return outcome.value === null ? undefined : JSON.parse(outcome.value);
  const { name, message, retryable } = outcome.error;
  if (name === "ToolError") throw new ToolError(message, { retryable: retryable === true });
  if (name === "Retry") throw new Retry(message);
  const error = new Error(message);
  error.name = name;
  throw error;
}
