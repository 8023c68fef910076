import { hash } from "node:crypto";
import { RunStateError } from "../errors.js";
import {
  RUN_STATE_FORMAT,
  RUN_STATE_VERSION,
  RunState,
  type RunStateJson,
  type StateOwner,
} from "../runner/run-state.js";
import type { RunSnapshot } from "../runner/snapshot.js";
import type { Interruption } from "../runner/types.js";
import { CallNotWaitingError, StoredRunError } from "./errors.js";
import type { StoredRunStatus, StoredState } from "./run-store.js";

/**
 * Stored states are the {@link RunState} JSON format. Its integrity digest is computed over
 * key-sorted JSON, which costs several times the write itself; a store instead keeps the
 * body's JSON text beside the SHA-256 of that text (the `state_digest` column), which
 * catches a corrupt row just as well, and signs the body the usual way only when it loads
 * it. The database is the trust boundary, so an agent's `stateSecret` (which signs states
 * handed to callers) is not used here: a webhook can then decide calls without the agent.
 */
function storeOwner(name: string, toolNames: readonly string[]): StateOwner {
  return {
    name,
    toolNames,
    stateSecret: undefined,
    // Edited arguments are validated against the tool's schema when the run resumes.
    validateArgs: (_toolName, args) => args as Readonly<Record<string, unknown>>,
  };
}

/** The stored form of a run's snapshot. */
export function encodeState(
  agent: { readonly name: string; readonly toolNames: readonly string[] },
  snapshot: RunSnapshot,
): StoredState {
  const body = {
    format: RUN_STATE_FORMAT,
    version: RUN_STATE_VERSION,
    agent: { name: agent.name, tools: agent.toolNames },
    snapshot,
  } as const;
  return textOf(body);
}

/** Reads a state column: its digest checked, then the usual {@link RunStateJson}, signed as `RunState.fromJSON` expects. */
export function readState(runId: string, text: string, digest: string | null): RunStateJson {
  if (digest !== sha256(text)) {
    throw new StoredRunError(
      `run "${runId}" has a corrupt state: its text does not match its digest (state_digest); restore the row from a backup or delete the run.`,
      runId,
    );
  }
  const body = parseColumn<Omit<RunStateJson, "integrity">>(runId, "state", text);
  if (!body || typeof body !== "object" || !body.agent || !body.snapshot) {
    throw new StoredRunError(`run "${runId}" has a corrupt state: it lacks its agent or snapshot.`, runId);
  }
  const signed = new RunState(storeOwner(body.agent.name, body.agent.tools), body.snapshot).toJSON();
  return { ...body, integrity: signed.integrity };
}

/** Reads a stored state for `agent`; a corrupt, newer or foreign state is a {@link StoredRunError} naming the run. */
export function decodeState(
  runId: string,
  agent: { readonly name: string; readonly toolNames: readonly string[] },
  json: RunStateJson,
): RunSnapshot {
  return loaded(runId, () => RunState.fromJSON(storeOwner(agent.name, agent.toolNames), json)).snapshot;
}

/** Parses a stored JSON column, naming the run when it is not JSON. */
export function parseColumn<T>(runId: string, column: string, text: string): T {
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new StoredRunError(
      `run "${runId}" has a corrupt ${column} column (${(error as Error).message}); restore the row from a backup or delete the run.`,
      runId,
    );
  }
}

/** The calls of a stored state that wait for a person. */
export function interruptionsOf(runId: string, json: RunStateJson | undefined): Interruption[] {
  if (!json) return [];
  const pending = json.snapshot?.pending;
  if (pending !== undefined && !Array.isArray(pending))
    throw new StoredRunError(`run "${runId}" has a corrupt state: "pending" is not a list.`, runId);
  return loaded(runId, () => new RunState(storeOwner(json.agent.name, json.agent.tools), json.snapshot)).interruptions;
}

/** A person's decision on one waiting call. */
export type Decision =
  | { readonly kind: "approve"; readonly args?: Readonly<Record<string, unknown>> }
  | { readonly kind: "reject"; readonly message?: string };

/** What deciding a call changes in a stored run. */
export interface Decided {
  readonly state: StoredState;
  /** `ready` once no call waits any more, else still `paused`. */
  readonly status: Extract<StoredRunStatus, "ready" | "paused">;
  /**
   * The call whose recorded attempts are to be forgotten: a call whose outcome was unknown
   * and that a person approved to run again.
   */
  readonly forget?: string;
}

/** Applies a decision to a stored state (checked, not yet written). */
export function decide(
  runId: string,
  status: StoredRunStatus,
  json: RunStateJson | undefined,
  callId: string,
  decision: Decision,
): Decided {
  // A run that has not reached its first checkpoint has no call to decide yet.
  if (!json) throw new CallNotWaitingError(runId, callId, []);
  const state = loaded(runId, () => RunState.fromJSON(storeOwner(json.agent.name, json.agent.tools), json));
  const waiting = state.interruptions;
  const call = waiting.find((i) => i.callId === callId);
  if (status !== "paused" || !call) {
    throw new CallNotWaitingError(runId, callId, status === "paused" ? waiting.map((i) => i.callId) : []);
  }
  if (decision.kind === "approve") state.approve(callId, decision.args ? { args: decision.args } : {});
  else state.reject(callId, decision.message);
  const forget =
    decision.kind === "approve" && call.reason === OUTCOME_UNKNOWN ? `${state.snapshot.step}:${callId}` : undefined;
  const { integrity: _, ...body } = state.toJSON();
  return {
    state: textOf(body),
    status: state.interruptions.length ? "paused" : "ready",
    ...(forget ? { forget } : {}),
  };
}

/**
 * The `reason` of an interruption for a call that started on a worker which stopped before
 * it finished, when its tool is neither idempotent nor read-only: it may or may not have
 * taken effect. Approve to run it again, or reject with what happened (the model reads it).
 */
export const OUTCOME_UNKNOWN = "outcome_unknown";

function textOf(body: Omit<RunStateJson, "integrity">): StoredState {
  const text = JSON.stringify(body);
  return { text, digest: sha256(text) };
}

function sha256(text: string): string {
  return hash("sha256", text, "hex");
}

function loaded(runId: string, load: () => RunState): RunState {
  try {
    return load();
  } catch (error) {
    if (error instanceof RunStateError) throw new StoredRunError(`run "${runId}": ${error.message}`, runId);
    throw error;
  }
}
