import type { Message } from "../model/messages.js";
import type { RunSnapshot } from "../runner/snapshot.js";
import type { Interruption } from "../runner/types.js";

/**
 * Where a stored run stands. `ready`: waiting for a worker (new, or every approval decided);
 * `running`: a worker holds its lease (or held it and died: claimable once the lease
 * expires); `paused`: calls wait for a person; `completed` and `failed` are final.
 */
export type StoredRunStatus = "ready" | "running" | "paused" | "completed" | "failed";

/** A run's state as a store keeps it: the JSON text of the run state's body, and its SHA-256. */
export interface StoredState {
  readonly text: string;
  readonly digest: string;
}

/** What a finished tool body gave: its return value as JSON text (`null` for `undefined`), or what it threw. */
export type RecordedOutcome =
  | { readonly value: string | null }
  | {
      readonly error: {
        readonly name: string;
        readonly message: string;
        readonly retryable?: boolean;
      };
    };

/** One attempt of one call, as recorded: `started` before the body ran, `finished` with its outcome after. */
export interface CallEntry {
  /** `<step>:<callId>`: unique in a run even when a provider reuses call ids across turns. */
  readonly callKey: string;
  readonly attempt: number;
  readonly status: "started" | "finished";
  readonly outcome?: RecordedOutcome;
}

/** The agent a stored run belongs to, as `new Agent()` has it: its name and its sorted tool names. */
export interface RunAgent {
  readonly name: string;
  readonly toolNames: readonly string[];
}

/** A new run: started by this worker (`owner` given) or queued for any worker. */
export interface NewRun {
  readonly runId: string;
  readonly agent: string;
  /** The agent's sorted tool names: only an agent with the same tools claims the run. */
  readonly tools: readonly string[];
  readonly sessionId?: string;
  /** The user the run serves (its memory under `memory: { scope: "user" }`). */
  readonly userId?: string;
  /** The transcript the run starts from (the session's history, then the new input). */
  readonly input: readonly Message[];
  /** The worker that runs it now; absent to queue it as `ready`. */
  readonly owner?: string;
  readonly leaseMs: number;
}

/** A run this worker now holds. */
export interface ClaimedRun {
  readonly runId: string;
  readonly agent: string;
  readonly sessionId?: string;
  readonly userId?: string;
  /** The last checkpoint, read and checked for the claiming agent; absent while the run has made none yet. */
  readonly snapshot?: RunSnapshot;
  readonly input: readonly Message[];
  readonly calls: readonly CallEntry[];
}

/** One checkpoint: the run's state and where it stands, written in one transaction. */
export interface Checkpoint {
  /** The run's state; absent to keep the stored one (a run that failed before its loop started). */
  readonly state?: StoredState;
  readonly status: Exclude<StoredRunStatus, "ready">;
  readonly output?: string;
  readonly error?: string;
  /** The transcript to keep as the session's history (written with the final checkpoint). */
  readonly session?: readonly Message[];
}

/** A stored run as callers see it. */
export interface StoredRun {
  readonly runId: string;
  readonly agent: string;
  readonly sessionId: string | undefined;
  /** The user the run serves, when it was given one (`userId` of `startRun`/`submitRun`). */
  readonly userId: string | undefined;
  readonly status: StoredRunStatus;
  readonly output: string | undefined;
  readonly error: string | undefined;
  /** Calls waiting for a person (approval, or an outcome the store cannot know). */
  readonly interruptions: readonly Interruption[];
  readonly updatedAt: number;
}

/** Filter of {@link RunStore.list}. */
export interface RunFilter {
  readonly status?: StoredRunStatus;
  readonly agent?: string;
  /** Most runs returned (default 100), oldest change first. */
  readonly limit?: number;
}

/**
 * Durable storage of runs, sessions and each tool call's progress, shared by any number of
 * processes. Every method that changes a run does it in one transaction: a failure leaves
 * nothing half-written. Methods taking `owner` fail with `LeaseLostError` unless that worker
 * holds the run. A database that is down, restarting or locked fails an operation with
 * `StoreUnavailableError` (nothing written, unless the connection dropped while it
 * committed); the next operation reconnects.
 */
export interface RunStore {
  /** Creates a run (`RunExistsError` when its id is taken). */
  create(run: NewRun): Promise<void>;
  /**
   * Takes the lease of one run for `agent`. Refuses, writing nothing: `RunNotFoundError`,
   * `RunHeldError`, or `StoredRunError` for a final run, a run of another agent (name or
   * tools), or a row it cannot read (corrupt, or a state of a newer format).
   */
  claim(runId: string, owner: string, leaseMs: number, agent: RunAgent): Promise<ClaimedRun>;
  /**
   * Takes the lease of the oldest claimable run of these agents (same name and tools):
   * `ready`, or `running` with an expired lease. A run it cannot read is taken out of the
   * queue, stored as `failed` with the reason, and thrown as a `StoredRunError` naming it,
   * so that the next call goes on with the other runs.
   */
  claimNext(agents: readonly RunAgent[], owner: string, leaseMs: number): Promise<ClaimedRun | undefined>;
  /** Extends the lease. */
  renew(runId: string, owner: string, leaseMs: number): Promise<void>;
  /** Writes a checkpoint; a final or paused status gives the lease up. */
  checkpoint(runId: string, owner: string, checkpoint: Checkpoint, leaseMs: number): Promise<void>;
  /** Records that an attempt of a call is about to run, with the run's state when it changed since the last write. */
  callStarted(
    runId: string,
    owner: string,
    call: { readonly callKey: string; readonly attempt: number },
    state: StoredState | undefined,
    leaseMs: number,
  ): Promise<void>;
  /** Records what an attempt's body gave. */
  callFinished(
    runId: string,
    owner: string,
    call: { readonly callKey: string; readonly attempt: number; readonly outcome: RecordedOutcome },
  ): Promise<void>;
  /**
   * Lets a waiting call run, with its arguments as proposed or `args` as edited (validated
   * against the tool's schema when the run resumes). Any process may call it.
   *
   * @example
   * ```ts
   * await store.approve(runId, callId); // e.g. in a webhook handler
   * ```
   */
  approve(
    runId: string,
    callId: string,
    options?: { readonly args?: Readonly<Record<string, unknown>> },
  ): Promise<void>;
  /** Refuses a waiting call; the model reads `message` as its `rejected` result. */
  reject(runId: string, callId: string, message?: string): Promise<void>;
  /**
   * Stops a run for good: a `ready`, `running` or `paused` run is stored as `failed`, its
   * error `Cancelled: <reason>`. A worker running it stops at its next write (a
   * `LeaseLostError`), its call in flight left as it was. For a run nobody can fix; `retry`
   * undoes it. `StoredRunError` when the run is final already.
   *
   * @example
   * ```ts
   * await store.cancel(runId, "The customer withdrew the request.");
   * ```
   */
  cancel(runId: string, reason?: string): Promise<void>;
  /**
   * Puts a `failed` run back in the queue (`ready`, its error cleared): a worker goes on
   * from its last checkpoint, or from its start when it made none. For a run that failed
   * for a reason now fixed: a row restored from a backup, an agent deployed again, a limit
   * raised. `StoredRunError` when the run is not failed.
   */
  retry(runId: string): Promise<void>;
  /** A run by id, or `undefined`. */
  get(runId: string): Promise<StoredRun | undefined>;
  /** Runs by status and agent. */
  list(filter?: RunFilter): Promise<StoredRun[]>;
  /** A session's history (empty for a new session). */
  session(sessionId: string): Promise<Message[]>;
  /** Closes the connection (or pool); closing again does nothing. */
  close(): Promise<void>;
}
