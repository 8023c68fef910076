import { describe, expect, it } from "vitest";
import * as root from "../../src/index.js";
import * as store from "../../src/store/index.js";

// The public surface of toolwright/store: a change here is a change users see, so it is made on purpose.
describe("toolwright/store exports", () => {
  it("names exactly these values", () => {
    expect(Object.keys(store).sort()).toEqual([
      "CallNotWaitingError",
      "DEFAULT_LEASE_MS",
      "LeaseLostError",
      "OUTCOME_UNKNOWN",
      "RunExistsError",
      "RunHeldError",
      "RunNotFoundError",
      "SCHEMA_VERSION",
      "SchemaVersionError",
      "StoreError",
      "StoreUnavailableError",
      "StoredRunError",
      "openPostgresStore",
      "openSqliteStore",
      "resumeRun",
      "startRun",
      "submitRun",
      "work",
    ]);
  });

  it("stays off the root entry", () => {
    expect(Object.keys(root)).not.toContain("startRun");
    expect(Object.keys(root)).not.toContain("openSqliteStore");
  });

  it("gives every store error the base class and the run's id", () => {
    const error = new store.RunNotFoundError("run_1");
    expect(error).toBeInstanceOf(store.StoreError);
    expect(error).toBeInstanceOf(root.ToolwrightError);
    expect(error.runId).toBe("run_1");
  });
});
