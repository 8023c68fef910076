import { ToolwrightError } from "../errors.js";

/** Something about a stored run is wrong; `runId` names it. Nothing was written by the call that threw. */
export class StoreError extends ToolwrightError {
  override name = "StoreError";
  constructor(
    message: string,
    /** The run concerned, when there is one. */
    readonly runId?: string,
  ) {
    super(message);
  }
}

/**
 * The database could not be reached, dropped the connection, or stayed locked past the
 * busy timeout: a fault of the database, not of the run. The operation wrote nothing,
 * unless the connection dropped while it committed; every store operation may be tried
 * again. During a run, toolwright retries its own writes (see `onStoreError`).
 */
export class StoreUnavailableError extends StoreError {
  override name = "StoreUnavailableError";
  constructor(
    /** What was being done: `claim`, `callFinished`, `checkpoint` ... */
    readonly operation: string,
    cause: unknown,
    runId?: string,
  ) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      `the store's database is unavailable (${reason}) for ${operation}${runId === undefined ? "" : ` of run "${runId}"`}: ` +
        "try again once it is back (a PostgreSQL restart or failover, or a SQLite file locked by another process past busyTimeoutMs).",
      runId,
    );
    this.cause = cause;
  }
}

/** No run with this id is in the store. */
export class RunNotFoundError extends StoreError {
  override name = "RunNotFoundError";
  constructor(runId: string) {
    super(`no run "${runId}" in the store: check the id (it is result.runId of the run that made it).`, runId);
  }
}

/** A run with this id exists already; run ids are unique per store. */
export class RunExistsError extends StoreError {
  override name = "RunExistsError";
  constructor(runId: string) {
    super(`a run "${runId}" is in the store already: resume it by id, or start a new run with another runId.`, runId);
  }
}

/** Another worker holds the run's lease; it is free again when that worker finishes or its lease expires. */
export class RunHeldError extends StoreError {
  override name = "RunHeldError";
  constructor(
    runId: string,
    /** The worker holding the run. */
    readonly owner: string,
    /** When its lease expires (ms since the epoch). */
    readonly leaseUntil: number,
  ) {
    super(
      `run "${runId}" is held by worker "${owner}" until ${new Date(leaseUntil).toISOString()}: ` +
        "let that worker finish it, or resume it after the lease expires (a worker loop picks it up by itself).",
      runId,
    );
  }
}

/** This worker's lease on the run was taken over (it expired and another worker claimed the run), or the run was cancelled; the run stopped here. */
export class LeaseLostError extends StoreError {
  override name = "LeaseLostError";
  constructor(
    runId: string,
    /** The worker that lost the lease. */
    readonly owner: string,
  ) {
    super(
      `worker "${owner}" lost its lease on run "${runId}" (it expired and another worker took the run over, or the run was cancelled); ` +
        "this worker stopped the run and wrote nothing more. Raise leaseMs if tools often run longer than the lease.",
      runId,
    );
  }
}

/** An approval or rejection named a call that is not waiting for one. */
export class CallNotWaitingError extends StoreError {
  override name = "CallNotWaitingError";
  constructor(
    runId: string,
    readonly callId: string,
    /** The calls of the run that are waiting. */
    readonly waiting: readonly string[],
  ) {
    super(
      `run "${runId}" has no call "${callId}" waiting for a decision; waiting: ${waiting.length ? waiting.join(", ") : "none"}.`,
      runId,
    );
  }
}

/** A stored run cannot be read: its row is corrupt, it was written by a newer toolwright, or it belongs to another agent. */
export class StoredRunError extends StoreError {
  override name = "StoredRunError";
}

/** The database was migrated by a newer toolwright than this one. */
export class SchemaVersionError extends StoreError {
  override name = "SchemaVersionError";
  constructor(
    readonly found: number,
    readonly supported: number,
  ) {
    super(
      `the store's schema is at version ${found}, newer than this toolwright reads (${supported}): upgrade toolwright in every process that opens it.`,
    );
  }
}
