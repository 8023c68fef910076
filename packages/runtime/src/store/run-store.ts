import type { Message } from "../model/messages.js";
import type { RunStateJson } from "../runner/run-state.js";
import type { Interruption } from "../runner/types.js";

/**
 * Where a stored run stands. `ready`: waiting for a worker (new, or every approval decided);
 * `running`: a worker holds its lease (or held it and died: claimable once the lease
 * expires); `paused`: calls wait for a person; `completed` and `failed` are final.
 */
export type StoredRunStatus = "ready" | "running" | "paused" | "completed" | "failed";

/** A run's state as a store keeps it: the JSON text of the {@link RunStateJson} body, and its SHA-256. */
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

/** A new run: started by this worker (`owner` given) or queued for any worker. */
export interface NewRun {
  readonly runId: string;
  readonly agent: string;
  readonly sessionId?: string;
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
  /** The last checkpoint; absent while the run has made no checkpoint yet. */
  readonly state?: RunStateJson;
  readonly input: readonly Message[];
  readonly calls: readonly CallEntry[];
}

/** One checkpoint: the run's state and where it stands, written in one transaction. */
export interface Checkpoint {
  readonly state: StoredState;
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
 * holds the run.
 */
export interface RunStore {
  /** Creates a run (`RunExistsError` when its id is taken). */
  create(run: NewRun): Promise<void>;
  /** Takes the lease of one run (`RunNotFoundError`, `RunHeldError`, or `StoredRunError` for a final run). */
  claim(runId: string, owner: string, leaseMs: number): Promise<ClaimedRun>;
  /** Takes the lease of the oldest claimable run of these agents: `ready`, or `running` with an expired lease. */
  claimNext(agents: readonly string[], owner: string, leaseMs: number): Promise<ClaimedRun | undefined>;
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
  /** A run by id, or `undefined`. */
  get(runId: string): Promise<StoredRun | undefined>;
  /** Runs by status and agent. */
  list(filter?: RunFilter): Promise<StoredRun[]>;
  /** A session's history (empty for a new session). */
  session(sessionId: string): Promise<Message[]>;
  /** Closes the connection (or pool). */
  close(): Promise<void>;
}
