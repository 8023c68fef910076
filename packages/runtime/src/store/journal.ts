import type { RunEnv } from "../runner/env.js";
import type { RunResult } from "../runner/run-result.js";
import type { RunSnapshot } from "../runner/snapshot.js";
import { LeaseLostError } from "./errors.js";
import type { CallJournal } from "./recorded-tool.js";
import { recordedTool } from "./recorded-tool.js";
import type { CallEntry, Checkpoint, RecordedOutcome, RunStore, StoredState } from "./run-store.js";
import { encodeState } from "./stored-state.js";

/**
 * One worker's hold on one run: it writes the run's checkpoints, records each tool call,
 * renews the lease, and stops the run (through `abort`) the moment the lease is lost.
 *
 * A model turn is checkpointed with the start of its first call, in the same transaction
 * (a turn that runs no tool is checkpointed with the run's end or pause); each call's end is
 * one more. A worker that dies in between leaves a state its successor completes: finished
 * calls give their recorded outcomes again, and the rest of the loop is deterministic.
 */
export class Journal implements CallJournal {
  /** Set when the lease was lost; the run then stops without writing more. */
  lost: LeaseLostError | undefined;
  /** The run the loop works on, and its agent: set by {@link Journal.attach}. */
  #run:
    | {
        readonly snapshot: RunSnapshot;
        readonly agent: { readonly name: string; readonly toolNames: readonly string[] };
      }
    | undefined;
  /** The step whose state the store has; a call's start writes the state once per turn. */
  #writtenStep = -1;
  /** The write of the current turn's state, which its other calls wait for. */
  #turnWritten: Promise<void> | undefined;
  readonly #finished = new Map<string, RecordedOutcome>();
  #heartbeat: ReturnType<typeof setInterval> | undefined;

  constructor(
    readonly store: RunStore,
    readonly runId: string,
    readonly owner: string,
    readonly sessionId: string | undefined,
    readonly leaseMs: number,
    readonly abort: AbortController,
    calls: readonly CallEntry[],
  ) {
    for (const c of calls) if (c.outcome) this.#finished.set(`${c.callKey}#${c.attempt}`, c.outcome);
  }

  /** Takes the run the loop is about to start: gives it the stored id and records its tools. */
  attach(env: RunEnv): RunEnv {
    const snapshot = env.snapshot.runId === this.runId ? env.snapshot : { ...env.snapshot, runId: this.runId };
    this.#run = { snapshot, agent: env.config };
    const tools = new Map([...env.config.tools].map(([name, tool]) => [name, recordedTool(tool, this)]));
    return { ...env, snapshot, config: { ...env.config, tools } };
  }

  /** Renews the lease every third of its length while the run goes on. */
  startHeartbeat(): void {
    this.#heartbeat = setInterval(() => {
      this.store.renew(this.runId, this.owner, this.leaseMs).catch((error: unknown) => this.#fail(error));
    }, this.leaseMs / 3);
    this.#heartbeat.unref();
  }

  stopHeartbeat(): void {
    clearInterval(this.#heartbeat);
  }

  finishedOutcome(callKey: string, attempt: number): RecordedOutcome | undefined {
    return this.#finished.get(`${callKey}#${attempt}`);
  }

  async started(callKey: string, attempt: number): Promise<void> {
    const step = this.#snapshot().step;
    const start = (state: StoredState | undefined) =>
      this.#write(() => this.store.callStarted(this.runId, this.owner, { callKey, attempt }, state, this.leaseMs));
    if (step > this.#writtenStep) {
      this.#writtenStep = step;
      this.#turnWritten = start(this.#state());
      return this.#turnWritten;
    }
    // The other calls of the turn start once its state is stored, so none is recorded without it.
    await this.#turnWritten;
    await start(undefined);
  }

  async finished(callKey: string, attempt: number, outcome: RecordedOutcome): Promise<void> {
    this.#finished.set(`${callKey}#${attempt}`, outcome);
    await this.#write(() => this.store.callFinished(this.runId, this.owner, { callKey, attempt, outcome }));
  }

  /** Writes how the run ended, completed or paused for a person, and gives the lease up. */
  async end(result: RunResult): Promise<void> {
    const completed = result.status === "completed";
    await this.#checkpoint({
      state: this.#state(),
      status: completed ? "completed" : "paused",
      ...(result.output === undefined ? {} : { output: result.output }),
      ...(completed && this.sessionId !== undefined ? { session: result.messages } : {}),
    });
  }

  /** Writes that the run failed (a limit, a tool under the "fail" policy, a provider error), and gives the lease up. */
  async fail(error: unknown): Promise<void> {
    if (!this.#run) return;
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    await this.#checkpoint({ state: this.#state(), status: "failed", error: message });
  }

  async #checkpoint(checkpoint: Checkpoint): Promise<void> {
    await this.#write(() => this.store.checkpoint(this.runId, this.owner, checkpoint, this.leaseMs));
  }

  async #write(write: () => Promise<void>): Promise<void> {
    if (this.lost) throw this.lost;
    try {
      await write();
    } catch (error) {
      this.#fail(error);
      throw error;
    }
  }

  #fail(error: unknown): void {
    if (!(error instanceof LeaseLostError) || this.lost) return;
    this.lost = error;
    this.abort.abort(error);
  }

  #snapshot(): RunSnapshot {
    return this.#attached().snapshot;
  }

  #state(): StoredState {
    const { agent, snapshot } = this.#attached();
    return encodeState(agent, snapshot);
  }

  #attached() {
    if (!this.#run) throw new Error("toolwright/store: the journal was used before its run started.");
    return this.#run;
  }
}
