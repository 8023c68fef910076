import type { Agent } from "../agent/agent.js";
import { DEFAULT_LEASE_MS, type DurableOptions, defaultWorkerId, drive } from "./durable-run.js";
import type { ClaimedRun } from "./run-store.js";

/** Options of {@link work}. */
export interface WorkOptions<Deps = unknown> extends DurableOptions<Deps> {
  /** Runs this worker drives at once (default 4). */
  readonly concurrency?: number;
  /** How long to wait before looking again when no run is claimable (default 200 ms). */
  readonly pollMs?: number;
  /** Told about each run that ended in an error (a limit, a lost lease ...); the worker goes on. */
  readonly onError?: (error: unknown, runId: string) => void;
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
  const names = [...byName.keys()];
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
  while (!signal?.aborted) {
    let claimed: ClaimedRun | undefined;
    if (active.size < limit) claimed = await options.store.claimNext(names, workerId, leaseMs);
    if (claimed) {
      const run = claimed;
      const agent = byName.get(run.agent) as Agent<Deps>;
      const stop = new AbortController();
      stops.add(stop);
      const done = drive(agent, run, { ...options, workerId, signal: stop.signal })
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
    await Promise.race([...active, pause(options.pollMs ?? 200, signal)]);
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
