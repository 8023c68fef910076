import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { Agent } from "../agent/agent.js";
import type { Message } from "../model/messages.js";
import type { RunResult } from "../runner/run-result.js";
import { RunState } from "../runner/run-state.js";
import type { StoreError } from "./errors.js";
import { Journal } from "./journal.js";
import { reconcile } from "./reconcile.js";
import type { ClaimedRun, RunStore } from "./run-store.js";

/** Options of every durable run. */
export interface DurableOptions<Deps = unknown> {
  readonly store: RunStore;
  /** Given to every tool as `ctx.deps` (deps are not stored: each worker gives its own). */
  readonly deps?: Deps;
  /** Aborts the run in this worker; its lease then expires and another worker may go on from the last checkpoint. */
  readonly signal?: AbortSignal;
  /** How long a worker holds a run without renewing (default 30,000 ms; renewed every third of it). */
  readonly leaseMs?: number;
  /**
   * This worker's name (default: host, process id and a random part). A lease is written
   * under it and a part of its own per claim (`<workerId>#<claim>`), as `RunHeldError` shows.
   */
  readonly workerId?: string;
  /** Overrides the agent's `maxTurns` for the runs this call drives. */
  readonly maxTurns?: number;
  /**
   * Told about each write of a run that failed because the database did (a lost connection,
   * a restart, a file locked past `busyTimeoutMs`): the write is tried again while the lease
   * lasts, and if none succeeds the run is let go like a dead worker's (see docs/durable-runs.md).
   */
  readonly onStoreError?: (error: StoreError, runId: string) => void;
}

/** Options of {@link startRun} and {@link submitRun}. */
export interface StartOptions<Deps = unknown> extends DurableOptions<Deps> {
  /** The run's id (default: a new random one); unique per store. */
  readonly runId?: string;
  /**
   * Continues this conversation: its history comes first, the finished run's transcript
   * becomes it, and tools see it as `ctx.sessionId`; also the key of `"session"` memory
   * (default: the run's id). Stored with the run, so every worker that goes on with it keeps it.
   */
  readonly sessionId?: string;
  /**
   * The user this run serves: the key of its memory under `memory: { scope: "user" }`, as
   * `agent.run(input, { userId })`. Stored with the run, so every worker that goes on with it
   * serves the same user.
   */
  readonly userId?: string;
}

/** The default lease: long enough for most tool calls, short enough to recover a dead worker's run soon. */
export const DEFAULT_LEASE_MS = 30_000;

/** A worker id unique to this process. */
export function defaultWorkerId(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/**
 * The owner one claim's lease is written under: the worker and a part of the claim's own.
 * Two drives of one run in one worker then never pass for each other: one stalled past its
 * lease (a blocked event loop), and the same worker's later claim of the run it let lapse.
 */
export function leaseOwner(workerId: string): string {
  return `${workerId}#${randomUUID().slice(0, 8)}`;
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
  const owner = leaseOwner(options.workerId ?? defaultWorkerId());
  const run = await created(agent, input, options, owner);
  return drive(agent, run, { ...options, owner });
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
  const owner = leaseOwner(options.workerId ?? defaultWorkerId());
  const claimed = await options.store.claim(runId, owner, options.leaseMs ?? DEFAULT_LEASE_MS, agent);
  return drive(agent, claimed, { ...options, owner });
}

async function created<Deps>(
  agent: Agent<Deps>,
  input: string | readonly Message[],
  options: StartOptions<Deps>,
  owner: string | undefined,
): Promise<ClaimedRun> {
  const { store, sessionId, userId } = options;
  const history = sessionId === undefined ? [] : await store.session(sessionId);
  const given: readonly Message[] = typeof input === "string" ? [{ role: "user", content: input }] : input;
  const run = {
    runId: options.runId ?? `run_${randomUUID()}`,
    agent: agent.name,
    input: [...history, ...given],
    ...(sessionId === undefined ? {} : { sessionId }),
    ...(userId === undefined ? {} : { userId }),
  };
  await store.create({
    ...run,
    tools: agent.toolNames,
    leaseMs: options.leaseMs ?? DEFAULT_LEASE_MS,
    ...(owner ? { owner } : {}),
  });
  return { ...run, calls: [] };
}

/** Runs a claimed run to its end (or pause) under the lease of `owner` (see {@link leaseOwner}). */
export async function drive<Deps>(
  agent: Agent<Deps>,
  claimed: ClaimedRun,
  options: DurableOptions<Deps> & { readonly owner: string },
): Promise<RunResult> {
  const journal = new Journal({
    store: options.store,
    runId: claimed.runId,
    owner: options.owner,
    sessionId: claimed.sessionId,
    leaseMs: options.leaseMs ?? DEFAULT_LEASE_MS,
    calls: claimed.calls,
    onStoreError: options.onStoreError,
  });
  // Aborted by the journal when it lets the run go; the run also stops on the caller's signal.
  const signal = options.signal ? AbortSignal.any([options.signal, journal.signal]) : journal.signal;
  // The run's user and session, as stored: memory is keyed by them on every worker.
  const runOptions = {
    deps: options.deps as Deps,
    signal,
    ...(options.maxTurns === undefined ? {} : { maxTurns: options.maxTurns }),
    ...(claimed.userId === undefined ? {} : { userId: claimed.userId }),
    ...(claimed.sessionId === undefined ? {} : { sessionId: claimed.sessionId }),
  };
  journal.startHeartbeat();
  try {
    let input: RunState | readonly Message[] = claimed.input;
    if (claimed.snapshot) {
      reconcile(claimed.snapshot, claimed.calls, agent.tools, (name, args) => agent.validateArgs(name, args));
      input = new RunState(agent, claimed.snapshot);
    }
    // A start that throws (the agent's configuration, a model that cannot be resolved) is
    // the run's own outcome too: stored as failed below, not claimed again and again.
    const events = agent.durable(input, runOptions, (env) => journal.attach(env));
    // Checkpoints are written from inside the loop (see Journal); here only the end is.
    for (;;) {
      const next = await events.next();
      if (next.done) {
        await journal.end(next.value);
        return next.value;
      }
    }
  } catch (error) {
    // Let go (lease lost, store unavailable): whoever claims it next goes on from what was recorded.
    if (journal.stopped) throw journal.stopped;
    // Stopped by the caller's signal: the lease lapses and the run is picked up again later.
    if (options.signal?.aborted) throw error;
    // The run's own outcome. Should the store refuse to record it, the run is let go instead,
    // and the caller still learns how it ended.
    await journal.fail(error).catch(() => undefined);
    throw error;
  } finally {
    journal.stopHeartbeat();
  }
}
