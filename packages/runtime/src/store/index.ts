// toolwright/store: durable runs. The drivers (better-sqlite3, pg) are optional peers,
// loaded only by the store that needs them.
import type { PostgresStore, PostgresStoreOptions } from "./postgres-store.js";
import type { SqliteStore, SqliteStoreOptions } from "./sqlite-store.js";

export type { DurableOptions, StartOptions } from "./durable-run.js";
export { DEFAULT_LEASE_MS, resumeRun, startRun, submitRun } from "./durable-run.js";
export {
  CallNotWaitingError,
  LeaseLostError,
  RunExistsError,
  RunHeldError,
  RunNotFoundError,
  SchemaVersionError,
  StoredRunError,
  StoreError,
  StoreUnavailableError,
} from "./errors.js";
export { SCHEMA_VERSION } from "./migrations.js";
export type { PostgresStore, PostgresStoreOptions } from "./postgres-store.js";
export type {
  CallEntry,
  Checkpoint,
  ClaimedRun,
  NewRun,
  RecordedOutcome,
  RunAgent,
  RunFilter,
  RunStore,
  StoredRun,
  StoredRunStatus,
} from "./run-store.js";
export type { SqliteStore, SqliteStoreOptions } from "./sqlite-store.js";
export { OUTCOME_UNKNOWN } from "./stored-state.js";
export type { WorkOptions } from "./worker.js";
export { work } from "./worker.js";

/**
 * Opens (creating and migrating when needed) a SQLite store: a file shared by the processes
 * of one machine, or `":memory:"`. Needs `better-sqlite3` installed.
 *
 * @example
 * ```ts
 * const store = await openSqliteStore({ path: "runs.db" });
 * ```
 */
export async function openSqliteStore(options: SqliteStoreOptions): Promise<SqliteStore> {
  const { SqliteStore } = await import("./sqlite-store.js");
  return new SqliteStore(options);
}

/**
 * Opens (migrating when needed) a PostgreSQL store, for many workers on many machines.
 * Needs `pg` installed.
 *
 * @example
 * ```ts
 * const store = await openPostgresStore({ connectionString: process.env.DATABASE_URL });
 * ```
 */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<PostgresStore> {
  const { PostgresStore } = await import("./postgres-store.js");
  return PostgresStore.open(options);
}
