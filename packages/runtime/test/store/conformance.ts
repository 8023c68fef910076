import { createHash } from "node:crypto";
import { afterEach } from "vitest";
import type { RunStore, StoredRunStatus } from "../../src/store/index.js";
import { badInputTests } from "./conformance-bad-input.js";
import { failedRunTests } from "./conformance-failed-runs.js";
import { leaseTests } from "./conformance-leases.js";
import { memoryTests } from "./conformance-memory.js";
import { durableRunTests } from "./conformance-runs.js";
import { writeFaultTests } from "./conformance-write-faults.js";

/** What a store's test file gives the shared suite. */
export interface StoreHarness {
  /** A new handle on the test's database, as another process would open it. */
  open(): Promise<RunStore>;
  /** A run's state column as stored. */
  getState(runId: string): Promise<string>;
  /**
   * Overwrites a run's state column with `text`, as a bad hand edit would: with the text's
   * own digest, or with `digest` (a disk fault that left the two apart).
   */
  setState(runId: string, text: string, digest?: string): Promise<void>;
  /** Overwrites a run's input column, as a bad hand edit would. */
  setInput(runId: string, text: string): Promise<void>;
  /** Overwrites a run's status column, leaving the rest as it is. */
  setStatus(runId: string, status: StoredRunStatus): Promise<void>;
}

/** The harness the suite's groups use: handles opened through it are closed after each test, passed or not. */
export interface Suite extends StoreHarness {
  /** Two handles on one database, as two processes would have. */
  twoHandles(): Promise<readonly [RunStore, RunStore]>;
}

/** The suite every store runs, hono-style: `runStoreConformance(harness)` in a few lines. */
export function runStoreConformance(harness: StoreHarness): void {
  const opened: RunStore[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close()));
  });
  const open = async () => {
    const store = await harness.open();
    opened.push(store);
    return store;
  };
  const suite: Suite = {
    ...harness,
    open,
    twoHandles: async () => [await open(), await open()] as const,
  };
  durableRunTests(suite);
  memoryTests(suite);
  failedRunTests(suite);
  leaseTests(suite);
  writeFaultTests(suite);
  badInputTests(suite);
}

/** The digest a store keeps beside a state's text. */
export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
