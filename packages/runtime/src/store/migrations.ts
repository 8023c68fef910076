/**
 * The store's schema, one step per version, applied in order on open. A step is never
 * edited once released: a change is a new step. Both databases share the same tables.
 */
export interface Migration {
  readonly version: number;
  readonly sqlite: string;
  readonly postgres: string;
}

/**
 * Version 1 of the schema; the databases differ only in the type of the millisecond time
 * columns (SQLite's INTEGER holds 64 bits, PostgreSQL's needs BIGINT).
 */
function schemaV1(time: "INTEGER" | "BIGINT"): string {
  return `
      CREATE TABLE toolwright_runs (
        run_id TEXT PRIMARY KEY,
        agent TEXT NOT NULL,
        session_id TEXT,
        status TEXT NOT NULL,
        input TEXT NOT NULL,
        state TEXT,
        state_digest TEXT,
        output TEXT,
        error TEXT,
        lease_owner TEXT,
        lease_until ${time} NOT NULL DEFAULT 0,
        created_at ${time} NOT NULL,
        updated_at ${time} NOT NULL
      );
      CREATE INDEX toolwright_runs_claimable ON toolwright_runs (status, agent, updated_at);
      CREATE TABLE toolwright_calls (
        run_id TEXT NOT NULL REFERENCES toolwright_runs (run_id) ON DELETE CASCADE,
        call_key TEXT NOT NULL,
        attempt INTEGER NOT NULL,
        status TEXT NOT NULL,
        outcome TEXT,
        PRIMARY KEY (run_id, call_key, attempt)
      );
      CREATE TABLE toolwright_sessions (
        session_id TEXT PRIMARY KEY,
        messages TEXT NOT NULL,
        updated_at ${time} NOT NULL
      );`;
}

/**
 * Version 2: the tool names of a run's agent (JSON, sorted), kept from its creation, so a
 * queued run with no checkpoint yet is claimed only by an agent with the same tools. Rows
 * of version 1 have none; for them the checkpoint's own record of the tools is checked.
 */
const schemaV2 = "ALTER TABLE toolwright_runs ADD COLUMN tools TEXT;";

/** Version 3: the user a run serves (`userId`), whose memory it sees under `memory: { scope: "user" }`. */
const schemaV3 = "ALTER TABLE toolwright_runs ADD COLUMN user_id TEXT;";

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sqlite: schemaV1("INTEGER"),
    postgres: schemaV1("BIGINT"),
  },
  { version: 2, sqlite: schemaV2, postgres: schemaV2 },
  { version: 3, sqlite: schemaV3, postgres: schemaV3 },
];

/** The newest schema version this toolwright knows. */
export const SCHEMA_VERSION = MIGRATIONS.reduce((max, m) => Math.max(max, m.version), 0);
