import { describe, expect, it } from "vitest";
import { ToolTimeoutError } from "../../src/errors.js";
import { LeaseLostError, type RunStore, type StoreError, StoreUnavailableError } from "../../src/store/index.js";
import { Journal } from "../../src/store/journal.js";

/** A store whose call ends fail as `fail` says; every other method is unused here. */
function endsFailing(fail: (tries: number) => Error | undefined): RunStore & { tries: number } {
  const store = {
    tries: 0,
    async callFinished() {
      const error = fail(++store.tries);
      if (error) throw error;
    },
  };
  return store as unknown as RunStore & { tries: number };
}

function journal(store: RunStore, onStoreError?: (error: StoreError) => void): Journal {
  return new Journal({
    store,
    runId: "r-1",
    owner: "w#1",
    sessionId: undefined,
    leaseMs: 60_000,
    calls: [],
    onStoreError,
  });
}

const outage = () => new StoreUnavailableError("callFinished", new Error("Connection terminated unexpectedly"), "r-1");
const outcome = { value: '"refunded"' };

describe("Journal", () => {
  it("tries a failed write again, telling onStoreError of each failure, and the run goes on", async () => {
    const store = endsFailing((tries) => (tries <= 2 ? outage() : undefined));
    const told: StoreError[] = [];
    const j = journal(store, (error) => told.push(error));
    await j.finished("1:refund_1", 1, outcome, new AbortController().signal);
    expect(store.tries).toBe(3);
    expect(told).toHaveLength(2);
    expect(j.stopped).toBeUndefined();
    expect(j.signal.aborted).toBe(false);
  });

  it("lets the run go at once on a lost lease, trying nothing again", async () => {
    const store = endsFailing(() => new LeaseLostError("r-1", "w#1"));
    const j = journal(store);
    await expect(j.finished("1:refund_1", 1, outcome, new AbortController().signal)).rejects.toThrow(LeaseLostError);
    expect(store.tries).toBe(1);
    expect(j.signal.reason).toBeInstanceOf(LeaseLostError);
  });

  it("stops the run in the same tick as the call's time limit strikes while its end is being written", async () => {
    const store = endsFailing(() => outage());
    const j = journal(store);
    const call = new AbortController();
    const writing = j.finished("1:refund_1", 1, outcome, call.signal);
    await new Promise((resolve) => setTimeout(resolve, 0));
    // The loop would read the call's signal next: by then the run's signal has aborted.
    call.abort(new ToolTimeoutError("refund", 1_000));
    expect(j.signal.aborted).toBe(true);
    expect(j.signal.reason).toBeInstanceOf(StoreUnavailableError);
    expect((j.signal.reason as Error).message).toMatch(/not written within the tool's time limit/);
    await expect(writing).rejects.toThrow(StoreUnavailableError);
  });

  it("does not stop the run when the call is aborted with the run (no time limit struck)", async () => {
    const store = endsFailing((tries) => (tries === 1 ? outage() : undefined));
    const j = journal(store);
    const call = new AbortController();
    const writing = j.finished("1:refund_1", 1, outcome, call.signal);
    call.abort(new Error("worker stopping"));
    await writing;
    expect(j.signal.aborted).toBe(false);
  });
});
