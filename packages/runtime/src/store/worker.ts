import type { Agent } from "../agent/agent.js";
import { DEFAULT_LEASE_MS, type DurableOptions, defaultWorkerId, drive, leaseOwner } from "./durable-run.js";
import { StoredRunError, StoreError } from "./errors.js";
import type { ClaimedRun, RunAgent } from "./run-store.js";

/** The longest wait between two looks for work while the store keeps failing them. */
const MAX_CLAIM_BACKOFF_MS = 5_000;

/** Options of {@link work}. */
export interface WorkOptions<Deps = unknown> extends DurableOptions<Deps> {
  /** Runs this worker drives at once (default 4). */
  readonly concurrency?: number;
  /** How long to wait before looking again when no run is claimable (default 200 ms). */
  readonly pollMs?: number;
  /**
   * Told about each run that ended in an error (a limit, a lost lease ...), each run taken
   * out of the queue because it cannot be read (a `StoredRunError`: stored as `failed` with
   * the reason), and each failed look for work (`runId` undefined: the store was
   * unavailable; the worker looks again later). The worker goes on.
   */
  readonly onError?: (error: unknown, runId: string | undefined) => void;
}

/**
 * A worker loop: claims runs of these agents that are ready (queued, or every approval
 * decided) or whose worker died (lease expired), and drives each from its last checkpoint,
 * `concurrency` at a time, until `signal` aborts. Then it stops the runs in flight (another
 * worker goes on with them once their leases expire) and returns when they have stopped.
 *
 * @example
 * ```ts
 * const stop = new AbortController();
 * process.on("SIGTERM", () => stop.abort());
 * await work([support], { store, concurrency: 8, signal: stop.signal });
 * ```
 */
export async function work<Deps>(agents: readonly Agent<Deps>[], options: WorkOptions<Deps>): Promise<void> {
  const byName = new Map(agents.map((a) => [a.name, a]));
  const claimable: RunAgent[] = agents.map((a) => ({ name: a.name, toolNames: a.toolNames }));
  const workerId = options.workerId ?? defaultWorkerId();
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const limit = options.concurrency ?? 4;
  const active = new Set<Promise<void>>();
  const { signal } = options;
  // One listener on the caller's signal stops every run in flight (their leases then lapse).
  const stops = new Set<AbortController>();
  signal?.addEventListener(
    "abort",
    () => {
      for (const stop of stops) stop.abort(signal.reason);
    },
    { once: true },
  );
  const pollMs = options.pollMs ?? 200;
  let failedLooks = 0;
  let refused: string | undefined;
  while (!signal?.aborted) {
    let claimed: ClaimedRun | undefined;
    const owner = leaseOwner(workerId);
    if (active.size < limit) {
      try {
        claimed = await options.store.claimNext(claimable, owner, leaseMs);
        failedLooks = 0;
      } catch (error) {
        options.onError?.(error, error instanceof StoreError ? error.runId : undefined);
        // That run is out of the queue now: go on with the others at once (unless the store
        // handed the same one back: then it did not take it out, and waiting is better).
        if (error instanceof StoredRunError && error.runId !== refused) {
          refused = error.runId;
          continue;
        }
        // The database is away (a restart, a failover): look again later, less often while it stays away.
        failedLooks++;
        await pause(Math.min(pollMs * 2 ** failedLooks, Math.max(pollMs, MAX_CLAIM_BACKOFF_MS)), signal);
        continue;
      }
    }
    if (claimed) {
      const run = claimed;
      const agent = byName.get(run.agent) as Agent<Deps>;
      const stop = new AbortController();
      stops.add(stop);
      const done = drive(agent, run, { ...options, owner, signal: stop.signal })
        .then(() => undefined)
        .catch((error: unknown) => options.onError?.(error, run.runId))
        .finally(() => {
          stops.delete(stop);
          active.delete(done);
        });
      active.add(done);
      continue;
    }
    // Full, or nothing to claim: wait for a run to end or for the poll interval.
    await Promise.race([...active, pause(pollMs, signal)]);
  }
  await Promise.all(active);
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
  });
}
