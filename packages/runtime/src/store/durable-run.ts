import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { Agent } from "../agent/agent.js";
import type { Message } from "../model/messages.js";
import type { RunResult } from "../runner/run-result.js";
import { RunState } from "../runner/run-state.js";
import { Journal } from "./journal.js";
import { reconcile } from "./reconcile.js";
import type { ClaimedRun, RunStore } from "./run-store.js";
import { decodeState } from "./stored-state.js";

/** Options of every durable run. */
export interface DurableOptions<Deps = unknown> {
  readonly store: RunStore;
  /** Given to every tool as `ctx.deps` (deps are not stored: each worker gives its own). */
  readonly deps?: Deps;
  /** Aborts the run in this worker; its lease then expires and another worker may go on from the last checkpoint. */
  readonly signal?: AbortSignal;
  /** How long a worker holds a run without renewing (default 30,000 ms; renewed every third of it). */
  readonly leaseMs?: number;
  /** This worker's name in leases (default: host, process id and a random part). */
  readonly workerId?: string;
  /** Overrides the agent's `maxTurns` for the runs this call drives. */
  readonly maxTurns?: number;
}

/** Options of {@link startRun} and {@link submitRun}. */
export interface StartOptions<Deps = unknown> extends DurableOptions<Deps> {
  /** The run's id (default: a new random one); unique per store. */
  readonly runId?: string;
  /** Continues this conversation: its history comes first, and the finished run's transcript becomes it. */
  readonly sessionId?: string;
}

/** The default lease: long enough for most tool calls, short enough to recover a dead worker's run soon. */
export const DEFAULT_LEASE_MS = 30_000;

/** A worker id unique to this process. */
export function defaultWorkerId(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/**
 * Runs `agent` durably: every model turn and tool call is checkpointed in `store`, so the
 * run can be resumed by id in any process, and approvals can be given through the store.
 *
 * @example
 * ```ts
 * const store = await openSqliteStore({ path: "runs.db" });
 * const result = await startRun(agent, "Refund order A-771", { store, sessionId: "customer-42" });
 * if (result.status === "interrupted") console.log("waiting:", result.interruptions);
 * ```
 */
export async function startRun<Deps>(
  agent: Agent<Deps>,
  input: string | readonly Message[],
  options: StartOptions<Deps>,
): Promise<RunResult> {
  const workerId = options.workerId ?? defaultWorkerId();
  const run = await created(agent, input, options, workerId);
  return drive(agent, run, { ...options, workerId });
}

/**
 * Queues a durable run for a worker loop ({@link work}) and returns its id at once.
 *
 * @example
 * ```ts
 * const runId = await submitRun(agent, "Refund order A-771", { store });
 * ```
 */
export async function submitRun<Deps>(
  agent: Agent<Deps>,
  input: string | readonly Message[],
  options: StartOptions<Deps>,
): Promise<string> {
  return (await created(agent, input, options, undefined)).runId;
}

/**
 * Goes on with a stored run from its last checkpoint, in this process: after approvals, or
 * after the worker that ran it died. Fails with `RunHeldError` while another worker holds it.
 *
 * @example
 * ```ts
 * await store.approve(runId, callId);
 * const result = await resumeRun(agent, runId, { store });
 * ```
 */
export async function resumeRun<Deps>(
  agent: Agent<Deps>,
  runId: string,
  options: DurableOptions<Deps>,
): Promise<RunResult> {
  const workerId = options.workerId ?? defaultWorkerId();
  const claimed = await options.store.claim(runId, workerId, options.leaseMs ?? DEFAULT_LEASE_MS);
  return drive(agent, claimed, { ...options, workerId });
}

async function created<Deps>(
  agent: Agent<Deps>,
  input: string | readonly Message[],
  options: StartOptions<Deps>,
  owner: string | undefined,
): Promise<ClaimedRun> {
  const { store, sessionId } = options;
  const history = sessionId === undefined ? [] : await store.session(sessionId);
  const given: readonly Message[] = typeof input === "string" ? [{ role: "user", content: input }] : input;
  const run = {
    runId: options.runId ?? `run_${randomUUID()}`,
    agent: agent.name,
    input: [...history, ...given],
    ...(sessionId === undefined ? {} : { sessionId }),
  };
  await store.create({ ...run, leaseMs: options.leaseMs ?? DEFAULT_LEASE_MS, ...(owner ? { owner } : {}) });
  return { ...run, calls: [] };
}

/** Runs a claimed run to its end (or pause) under this worker's lease. */
export async function drive<Deps>(
  agent: Agent<Deps>,
  claimed: ClaimedRun,
  options: DurableOptions<Deps> & { readonly workerId: string },
): Promise<RunResult> {
  // Aborted by the journal when the lease is lost; the run also stops on the caller's signal.
  const abort = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, abort.signal]) : abort.signal;
  const journal = new Journal(
    options.store,
    claimed.runId,
    options.workerId,
    claimed.sessionId,
    options.leaseMs ?? DEFAULT_LEASE_MS,
    abort,
    claimed.calls,
  );
  let input: RunState | readonly Message[] = claimed.input;
  if (claimed.state) {
    const snapshot = decodeState(claimed.runId, agent, claimed.state);
    reconcile(snapshot, claimed.calls, agent.tools, (name, args) => agent.validateArgs(name, args));
    input = new RunState(agent, snapshot);
  }
  const runOptions = {
    deps: options.deps as Deps,
    signal,
    ...(options.maxTurns === undefined ? {} : { maxTurns: options.maxTurns }),
  };
  const events = agent.durable(input, runOptions, (env) => journal.attach(env));
  journal.startHeartbeat();
  try {
    // Checkpoints are written from inside the loop (see Journal); here only the end is.
    for (;;) {
      const next = await events.next();
      if (next.done) {
        await journal.end(next.value);
        return next.value;
      }
    }
  } catch (error) {
    if (journal.lost) throw journal.lost;
    // Stopped by the caller's signal: the lease lapses and the run is picked up again later.
    if (!options.signal?.aborted) await journal.fail(error);
    throw error;
  } finally {
    journal.stopHeartbeat();
  }
}
