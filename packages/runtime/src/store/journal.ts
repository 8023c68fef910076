import { ToolTimeoutError } from "../errors.js";
import type { RunEnv } from "../runner/env.js";
import { backoffMs, resolveRetryPolicy, sleep } from "../runner/retry.js";
import type { RunResult } from "../runner/run-result.js";
import type { RunSnapshot } from "../runner/snapshot.js";
import { answerText } from "../trace/run-record.js";
import { type StoreError, StoreUnavailableError } from "./errors.js";
import type { CallJournal } from "./recorded-tool.js";
import { recordedTool } from "./recorded-tool.js";
import { errorText } from "./rows.js";
import type { CallEntry, Checkpoint, RecordedOutcome, RunStore, StoredState } from "./run-store.js";
import { encodeState } from "./stored-state.js";

/**
 * How a failed write is tried again: after 50 ms, then twice as long each time up to 1 s
 * (±20 %), until the lease this worker had when the write first failed runs out, and at
 * least {@link MIN_TRIES} times.
 */
const WRITE_RETRY = resolveRetryPolicy({ initialBackoffMs: 50, maxBackoffMs: 1_000 });
const MIN_TRIES = 3;

/** What a {@link Journal} is made with. */
export interface JournalInit {
  readonly store: RunStore;
  readonly runId: string;
  /** The worker holding the run. */
  readonly owner: string;
  readonly sessionId: string | undefined;
  readonly leaseMs: number;
  /** The calls recorded so far, by this worker or earlier ones. */
  readonly calls: readonly CallEntry[];
  /** Told about each failed write before it is tried again. */
  readonly onStoreError: ((error: StoreError, runId: string) => void) | undefined;
}

/**
 * One worker's hold on one run: it writes the run's checkpoints, records each tool call,
 * renews the lease, and stops the run (through {@link Journal.signal}) when it must let
 * the run go.
 *
 * A model turn is checkpointed with the start of its first call, in the same transaction
 * (a turn that runs no tool is checkpointed with the run's end or pause); each call's end is
 * one more. A worker that dies in between leaves a state its successor completes: finished
 * calls give their recorded outcomes again, and the rest of the loop is deterministic.
 *
 * A store failure is never the run's: a write that fails (a lost connection, a locked
 * database) is tried again while the lease lasts. If none succeeds, or the lease was lost,
 * the run is let go as a dead worker's would be: it stops here and writes nothing more, and
 * whoever claims it next goes on from what was recorded.
 */
export class Journal implements CallJournal {
  /** Why the run was let go (its lease lost, or the store unavailable past it); the run then writes nothing more. */
  stopped: Error | undefined;
  readonly runId: string;
  readonly sessionId: string | undefined;
  readonly #init: JournalInit;
  readonly #abort = new AbortController();
  /** When this worker's lease ends, as far as it knows: its last lease-extending write plus `leaseMs`. */
  #leaseEnd: number;
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

  constructor(init: JournalInit) {
    this.#init = init;
    this.runId = init.runId;
    this.sessionId = init.sessionId;
    this.#leaseEnd = Date.now() + init.leaseMs;
    for (const c of init.calls) if (c.outcome) this.#finished.set(`${c.callKey}#${c.attempt}`, c.outcome);
  }

  /** Aborts when the run is let go. */
  get signal(): AbortSignal {
    return this.#abort.signal;
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
    const { store, runId, owner, leaseMs } = this.#init;
    this.#heartbeat = setInterval(() => {
      const sent = Date.now();
      store.renew(runId, owner, leaseMs).then(
        () => this.#extended(sent),
        // A renewal that failed is not tried again here: the next one comes a third of a lease later.
        (error: unknown) => (error instanceof StoreUnavailableError ? this.#report(error) : this.#stop(error)),
      );
    }, leaseMs / 3);
    this.#heartbeat.unref();
  }

  stopHeartbeat(): void {
    clearInterval(this.#heartbeat);
  }

  finishedOutcome(callKey: string, attempt: number): RecordedOutcome | undefined {
    return this.#finished.get(`${callKey}#${attempt}`);
  }

  async started(callKey: string, attempt: number): Promise<void> {
    const { store, runId, owner, leaseMs } = this.#init;
    const step = this.#snapshot().step;
    const start = async (state: StoredState | undefined) => {
      this.#extended(await this.#write(() => store.callStarted(runId, owner, { callKey, attempt }, state, leaseMs)));
    };
    if (step > this.#writtenStep) {
      this.#writtenStep = step;
      this.#turnWritten = start(this.#state());
      return this.#turnWritten;
    }
    // The other calls of the turn start once its state is stored, so none is recorded without it.
    await this.#turnWritten;
    await start(undefined);
  }

  /**
   * Records what an attempt's body gave. The call's `signal` aborting meanwhile (its time
   * limit) lets the run go: the loop would otherwise report a timeout for a body that ran.
   */
  async finished(callKey: string, attempt: number, outcome: RecordedOutcome, signal: AbortSignal): Promise<void> {
    const { store, runId, owner } = this.#init;
    this.#finished.set(`${callKey}#${attempt}`, outcome);
    const onAbort = () => {
      if (!(signal.reason instanceof ToolTimeoutError)) return;
      const late = new Error(`the end of call "${callKey}" was not written within the tool's time limit`);
      this.#stop(new StoreUnavailableError("callFinished", late, runId));
    };
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      await this.#write(() => store.callFinished(runId, owner, { callKey, attempt, outcome }));
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
  }

  /** Writes how the run ended, completed or paused for a person, and gives the lease up. */
  async end(result: RunResult): Promise<void> {
    const completed = result.status === "completed";
    await this.#checkpoint({
      state: this.#state(),
      status: completed ? "completed" : "paused",
      // A typed answer is kept as its JSON, as the saved run record keeps it.
      ...(result.output === undefined ? {} : { output: answerText(result.output) }),
      ...(completed && this.sessionId !== undefined ? { session: result.messages } : {}),
    });
  }

  /**
   * Writes that the run failed (a limit, a tool under the "fail" policy, a provider error),
   * and gives the lease up. A run that failed before its loop started keeps its last state.
   */
  async fail(error: unknown): Promise<void> {
    await this.#checkpoint({
      ...(this.#run ? { state: this.#state() } : {}),
      status: "failed",
      error: errorText(error),
    });
  }

  async #checkpoint(checkpoint: Checkpoint): Promise<void> {
    const { store, runId, owner, leaseMs } = this.#init;
    await this.#write(() => store.checkpoint(runId, owner, checkpoint, leaseMs));
  }

  /**
   * Writes, trying again after a `StoreUnavailableError` while the lease lasts; returns
   * when the successful try was sent. Any other failure, or the last one, lets the run go.
   */
  async #write(write: () => Promise<void>): Promise<number> {
    // Fixed at the first failure: renewals meanwhile do not make the retries last longer.
    let deadline: number | undefined;
    for (let tries = 1; ; tries++) {
      if (this.stopped) throw this.stopped;
      const sent = Date.now();
      try {
        await write();
        return sent;
      } catch (error) {
        if (!(error instanceof StoreUnavailableError)) {
          this.#stop(error);
          throw error;
        }
        this.#report(error);
        deadline ??= this.#leaseEnd;
        const wait = backoffMs(WRITE_RETRY, tries);
        if (tries >= MIN_TRIES && Date.now() + wait >= deadline) {
          this.#stop(error);
          throw error;
        }
        // Ends early when the run is let go meanwhile (another call lost the lease, say).
        await sleep(wait, this.#abort.signal);
      }
    }
  }

  #extended(sent: number): void {
    this.#leaseEnd = Math.max(this.#leaseEnd, sent + this.#init.leaseMs);
  }

  #report(error: StoreError): void {
    this.#init.onStoreError?.(error, this.runId);
  }

  /** Lets the run go: the loop stops at once (its calls in flight are aborted) and nothing more is written. */
  #stop(error: unknown): void {
    if (this.stopped) return;
    this.stopped = error instanceof Error ? error : new StoreUnavailableError("a write", error, this.runId);
    this.#abort.abort(this.stopped);
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
