import type { Message } from "../model/messages.js";
import type { RunStateJson } from "../runner/run-state.js";
import { RunHeldError, StoredRunError } from "./errors.js";
import type {
  CallEntry,
  ClaimedRun,
  NewRun,
  RecordedOutcome,
  RunAgent,
  StoredRun,
  StoredRunStatus,
} from "./run-store.js";
import { decodeState, interruptionsOf, parseColumn, readState } from "./stored-state.js";

/** A row of `toolwright_runs`, as both databases return it. */
export interface RunRow {
  readonly run_id: string;
  readonly agent: string;
  readonly session_id: string | null;
  /** `null` on rows made before schema version 3, and for runs given no user. */
  readonly user_id: string | null;
  readonly status: string;
  readonly input: string;
  readonly state: string | null;
  readonly state_digest: string | null;
  readonly output: string | null;
  readonly error: string | null;
  readonly lease_owner: string | null;
  /** The agent's tool names as JSON; `null` on rows made before schema version 2. */
  readonly tools: string | null;
  /** A number on SQLite, a string (BIGINT) on PostgreSQL. */
  readonly lease_until: number | string;
  readonly updated_at: number | string;
}

/** The columns of a new `toolwright_runs` row, in the order of {@link newRunValues}. */
export const NEW_RUN_COLUMNS =
  "run_id, agent, tools, session_id, user_id, status, input, lease_owner, lease_until, created_at";

/** The values of a new `toolwright_runs` row, in the order of {@link NEW_RUN_COLUMNS} (updated_at is created_at too). */
export function newRunValues(run: NewRun, now: number): (string | number | null)[] {
  return [
    run.runId,
    run.agent,
    toolsText(run.tools),
    run.sessionId ?? null,
    run.userId ?? null,
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
  const status = statusOf(row);
  return {
    runId: row.run_id,
    agent: row.agent,
    sessionId: row.session_id ?? undefined,
    userId: row.user_id ?? undefined,
    status,
    output: row.output ?? undefined,
    error: row.error ?? undefined,
    // Only a paused run has calls waiting; the state of any other is not read here.
    interruptions: status === "paused" ? interruptionsOf(row.run_id, stateOf(row)) : [],
    updatedAt: Number(row.updated_at),
  };
}

/**
 * A run as {@link RunStore.list} shows it: a row that cannot be read (corrupt) does not
 * hide the others; it is listed with no interruptions and `error` saying what is wrong
 * (`get` throws that `StoredRunError`).
 */
export function listedRun(row: RunRow): StoredRun {
  try {
    return storedRun(row);
  } catch (error) {
    if (!(error instanceof StoredRunError)) throw error;
    return {
      runId: row.run_id,
      agent: row.agent,
      sessionId: row.session_id ?? undefined,
      userId: row.user_id ?? undefined,
      status: STATUSES.includes(row.status) ? (row.status as StoredRunStatus) : "failed",
      output: row.output ?? undefined,
      error: errorText(error),
      interruptions: [],
      updatedAt: Number(row.updated_at),
    };
  }
}

/** Refuses to cancel a run that is final already. */
export function checkCancellable(row: RunRow): void {
  const status = statusOf(row);
  if (status === "completed" || status === "failed") {
    throw new StoredRunError(`run "${row.run_id}" is ${status}: there is nothing to cancel.`, row.run_id);
  }
}

/** The `error` of a cancelled run. */
export function cancelledText(reason: string | undefined): string {
  return `Cancelled: ${reason ?? "by an operator"}`;
}

/** Refuses to retry a run that is not `failed`. */
export function checkRetriable(row: RunRow): void {
  const status = statusOf(row);
  if (status !== "failed") {
    throw new StoredRunError(
      `run "${row.run_id}" is ${status}, not failed: only a failed run goes back in the queue.`,
      row.run_id,
    );
  }
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

/** How the `tools` column writes an agent's tool names. */
export function toolsText(toolNames: readonly string[]): string {
  return JSON.stringify(toolNames);
}

/**
 * A run claimed by `agent`, with its recorded calls: everything read and checked (the
 * agent's name and tools, the state's digest, format and version) before the claim is
 * written, so a run that cannot go on here is refused with a `StoredRunError` and left as it was.
 */
export function claimedRun(row: RunRow, calls: readonly CallRow[], agent: RunAgent): ClaimedRun {
  try {
    return readClaimed(row, calls, agent);
  } catch (error) {
    if (error instanceof StoredRunError) throw error;
    // A row that parses but has the wrong shape (a hand edit, a foreign writer) fails anywhere.
    throw new StoredRunError(
      `run "${row.run_id}" cannot be read (${errorText(error)}): its row is corrupt.`,
      row.run_id,
    );
  }
}

function readClaimed(row: RunRow, calls: readonly CallRow[], agent: RunAgent): ClaimedRun {
  if (row.agent !== agent.name) {
    throw new StoredRunError(
      `run "${row.run_id}" belongs to agent "${row.agent}", not "${agent.name}": resume it with the agent that started it.`,
      row.run_id,
    );
  }
  if (row.tools !== null && row.tools !== toolsText(agent.toolNames)) {
    throw new StoredRunError(
      `run "${row.run_id}" of agent "${row.agent}" was started with tools ${row.tools} but this agent has ` +
        `${toolsText(agent.toolNames)}: resume it with the same tools.`,
      row.run_id,
    );
  }
  const state = stateOf(row);
  const snapshot = state ? decodeState(row.run_id, agent, state) : undefined;
  return {
    runId: row.run_id,
    agent: row.agent,
    ...(row.session_id === null ? {} : { sessionId: row.session_id }),
    ...(row.user_id === null ? {} : { userId: row.user_id }),
    ...(snapshot ? { snapshot } : {}),
    input: parseColumn<Message[]>(row.run_id, "input", row.input),
    calls: calls.map((c) => callEntry(row.run_id, c)),
  };
}

/** How a run's `error` column reads: the error's name and message. */
export function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
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
