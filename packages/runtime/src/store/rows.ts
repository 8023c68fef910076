import type { Message } from "../model/messages.js";
import type { RunStateJson } from "../runner/run-state.js";
import { RunHeldError, StoredRunError } from "./errors.js";
import type { CallEntry, ClaimedRun, NewRun, RecordedOutcome, StoredRun, StoredRunStatus } from "./run-store.js";
import { interruptionsOf, parseColumn, readState } from "./stored-state.js";

/** A row of `toolwright_runs`, as both databases return it. */
export interface RunRow {
  readonly run_id: string;
  readonly agent: string;
  readonly session_id: string | null;
  readonly status: string;
  readonly input: string;
  readonly state: string | null;
  readonly state_digest: string | null;
  readonly output: string | null;
  readonly error: string | null;
  readonly lease_owner: string | null;
  /** A number on SQLite, a string (BIGINT) on PostgreSQL. */
  readonly lease_until: number | string;
  readonly updated_at: number | string;
}

/**
 * The values of a new `toolwright_runs` row, in the column order run_id, agent, session_id,
 * status, input, lease_owner, lease_until, created_at (updated_at is created_at too).
 */
export function newRunValues(run: NewRun, now: number): (string | number | null)[] {
  return [
    run.runId,
    run.agent,
    run.sessionId ?? null,
    run.owner === undefined ? "ready" : "running",
    JSON.stringify(run.input),
    run.owner ?? null,
    run.owner === undefined ? 0 : now + run.leaseMs,
    now,
  ];
}

/** A row of `toolwright_calls`. */
export interface CallRow {
  readonly call_key: string;
  readonly attempt: number;
  readonly status: string;
  readonly outcome: string | null;
}

const STATUSES: readonly string[] = ["ready", "running", "paused", "completed", "failed"];

/** The row's status, checked. */
export function statusOf(row: RunRow): StoredRunStatus {
  if (!STATUSES.includes(row.status))
    throw new StoredRunError(`run "${row.run_id}" has an unknown status "${row.status}" (corrupt row).`, row.run_id);
  return row.status as StoredRunStatus;
}

/** The row's state column, parsed. */
export function stateOf(row: RunRow): RunStateJson | undefined {
  return row.state === null ? undefined : readState(row.run_id, row.state, row.state_digest);
}

/** A run as callers see it. */
export function storedRun(row: RunRow): StoredRun {
  return {
    runId: row.run_id,
    agent: row.agent,
    sessionId: row.session_id ?? undefined,
    status: statusOf(row),
    output: row.output ?? undefined,
    error: row.error ?? undefined,
    interruptions: interruptionsOf(row.run_id, stateOf(row)),
    updatedAt: Number(row.updated_at),
  };
}

/**
 * Refuses to claim a run that is final, or held by another worker whose lease has not
 * expired. Called inside the claiming transaction, with the row locked.
 */
export function checkClaimable(row: RunRow, owner: string, now: number): void {
  const status = statusOf(row);
  if (status === "completed" || status === "failed") {
    throw new StoredRunError(`run "${row.run_id}" is ${status}: there is nothing to resume.`, row.run_id);
  }
  const until = Number(row.lease_until);
  if (status === "running" && row.lease_owner !== null && row.lease_owner !== owner && until > now) {
    throw new RunHeldError(row.run_id, row.lease_owner, until);
  }
}

/** A claimed run, with its recorded calls. */
export function claimedRun(row: RunRow, calls: readonly CallRow[]): ClaimedRun {
  const state = stateOf(row);
  return {
    runId: row.run_id,
    agent: row.agent,
    ...(row.session_id === null ? {} : { sessionId: row.session_id }),
    ...(state ? { state } : {}),
    input: parseColumn<Message[]>(row.run_id, "input", row.input),
    calls: calls.map((c) => callEntry(row.run_id, c)),
  };
}

function callEntry(runId: string, row: CallRow): CallEntry {
  if (row.status !== "started" && row.status !== "finished")
    throw new StoredRunError(
      `run "${runId}" has a call "${row.call_key}" with an unknown status "${row.status}".`,
      runId,
    );
  return {
    callKey: row.call_key,
    attempt: Number(row.attempt),
    status: row.status,
    ...(row.outcome === null ? {} : { outcome: parseColumn<RecordedOutcome>(runId, "outcome", row.outcome) }),
  };
}
