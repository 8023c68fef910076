import type pg from "pg";
import type { PostgresPoolOptions } from "../drivers/postgres.js";
import type { Message } from "../model/messages.js";
import { LeaseLostError, RunExistsError, RunNotFoundError, SchemaVersionError, StoredRunError } from "./errors.js";
import { MIGRATIONS, SCHEMA_VERSION } from "./migrations.js";
import { PostgresConnections } from "./postgres-connections.js";
import {
  type CallRow,
  cancelledText,
  checkCancellable,
  checkClaimable,
  checkRetriable,
  claimedRun,
  errorText,
  listedRun,
  NEW_RUN_COLUMNS,
  newRunValues,
  type RunRow,
  stateOf,
  statusOf,
  storedRun,
  toolsText,
} from "./rows.js";
import type {
  Checkpoint,
  ClaimedRun,
  NewRun,
  RecordedOutcome,
  RunAgent,
  RunFilter,
  RunStore,
  StoredRun,
  StoredState,
} from "./run-store.js";
import { type Decision, decide, parseColumn } from "./stored-state.js";

/** Options of {@link PostgresStore}: a `pg` pool's, e.g. `connectionString`, `host`, `port`, `max`. */
export type PostgresStoreOptions = PostgresPoolOptions;

/** Any number, so two processes migrating at once take turns. */
const MIGRATION_LOCK = 720_412;

/**
 * A {@link RunStore} on PostgreSQL (`pg`), for many workers on many machines. Leases are
 * taken with row locks: a worker looking for work skips rows another worker is claiming
 * (`FOR UPDATE SKIP LOCKED`), so no two workers ever take the same run.
 * Its connections outlive a restart of the server: a connection the server ends is dropped,
 * not fatal, and the operation using it fails with `StoreUnavailableError`.
 */
export class PostgresStore implements RunStore {
  readonly #db: PostgresConnections;

  private constructor(options: PostgresStoreOptions) {
    this.#db = new PostgresConnections(options);
  }

  /** Connects and migrates. */
  static async open(options: PostgresStoreOptions): Promise<PostgresStore> {
    const store = new PostgresStore(options);
    try {
      await store.#migrate();
    } catch (error) {
      await store.close();
      throw error;
    }
    return store;
  }

  async create(run: NewRun): Promise<void> {
    const now = Date.now();
    const inserted = await this.#db.query("create", run.runId, {
      text: `INSERT INTO toolwright_runs (${NEW_RUN_COLUMNS}, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10) ON CONFLICT (run_id) DO NOTHING`,
      values: newRunValues(run, now),
    });
    if (inserted.rowCount === 0) throw new RunExistsError(run.runId);
  }

  async claim(runId: string, owner: string, leaseMs: number, agent: RunAgent): Promise<ClaimedRun> {
    return this.#db.transaction("claim", runId, async (db) => {
      const row = (await db.query<RunRow>("SELECT * FROM toolwright_runs WHERE run_id = $1 FOR UPDATE", [runId]))
        .rows[0];
      if (!row) throw new RunNotFoundError(runId);
      const now = Date.now();
      checkClaimable(row, owner, now);
      // Read and checked before the lease is written: a refused claim changes nothing.
      const claimed = claimedRun(row, await this.#calls(db, runId), agent);
      await db.query(
        "UPDATE toolwright_runs SET status = 'running', lease_owner = $1, lease_until = $2 WHERE run_id = $3",
        [owner, now + leaseMs, runId],
      );
      return claimed;
    });
  }

  async claimNext(agents: readonly RunAgent[], owner: string, leaseMs: number): Promise<ClaimedRun | undefined> {
    if (agents.length === 0) return undefined;
    const now = Date.now();
    // One statement: the row is locked, skipped by every other claimer, and taken at once.
    const row = (
      await this.#db.query<RunRow>("claimNext", undefined, {
        name: "toolwright_claim_next",
        text: `UPDATE toolwright_runs SET status = 'running', lease_owner = $3, lease_until = $4
         WHERE run_id = (
           SELECT run_id FROM toolwright_runs
           WHERE agent = ANY($1) AND (status = 'ready' OR (status = 'running' AND lease_until < $2))
             AND (tools IS NULL OR (agent, tools) IN (SELECT * FROM unnest($1::text[], $5::text[])))
           ORDER BY updated_at LIMIT 1 FOR UPDATE SKIP LOCKED)
         RETURNING *`,
        values: [agents.map((a) => a.name), now, owner, now + leaseMs, agents.map((a) => toolsText(a.toolNames))],
      })
    ).rows[0];
    if (!row) return undefined;
    // The run's calls change only under its lease, which is this worker's now.
    const calls = await this.#calls("claimNext", row.run_id);
    try {
      return claimedRun(row, calls, agents.find((a) => a.name === row.agent) as RunAgent);
    } catch (error) {
      if (!(error instanceof StoredRunError)) throw error;
      // Taken out of the queue, so the next claim goes on with the other runs.
      await this.#db.query("claimNext", row.run_id, {
        text: `UPDATE toolwright_runs SET status = 'failed', error = $1, lease_owner = NULL, lease_until = 0, updated_at = $2
         WHERE run_id = $3 AND lease_owner = $4`,
        values: [errorText(error), Date.now(), row.run_id, owner],
      });
      throw error;
    }
  }

  async renew(runId: string, owner: string, leaseMs: number): Promise<void> {
    const done = await this.#db.query(
      "renew",
      runId,
      {
        name: "toolwright_renew",
        text: "UPDATE toolwright_runs SET lease_until = $1 WHERE run_id = $2 AND lease_owner = $3",
        values: [Date.now() + leaseMs, runId, owner],
      },
      "relaxed",
    );
    if (done.rowCount === 0) throw new LeaseLostError(runId, owner);
  }

  async checkpoint(runId: string, owner: string, checkpoint: Checkpoint, leaseMs: number): Promise<void> {
    const now = Date.now();
    const held = checkpoint.status === "running";
    await this.#db.transaction("checkpoint", runId, async (db) => {
      // Under this worker's lease, or (tried again after an answer lost with the connection) exactly as already written.
      const done = await db.query<{ session_id: string | null }>(
        `UPDATE toolwright_runs SET state = COALESCE($1, state), state_digest = COALESCE($10, state_digest), status = $2,
           output = $3, error = $4, lease_owner = $5, lease_until = $6, updated_at = $7
         WHERE run_id = $8 AND (lease_owner = $9 OR (lease_owner IS NULL AND status = $2 AND state_digest = $10))
         RETURNING session_id`,
        [
          checkpoint.state?.text ?? null,
          checkpoint.status,
          checkpoint.output ?? null,
          checkpoint.error ?? null,
          held ? owner : null,
          held ? now + leaseMs : 0,
          now,
          runId,
          owner,
          checkpoint.state?.digest ?? null,
        ],
      );
      const row = done.rows[0];
      if (!row) throw new LeaseLostError(runId, owner);
      if (checkpoint.session && row.session_id !== null) {
        await db.query(
          `INSERT INTO toolwright_sessions (session_id, messages, updated_at) VALUES ($1, $2, $3)
           ON CONFLICT (session_id) DO UPDATE SET messages = excluded.messages, updated_at = excluded.updated_at`,
          [row.session_id, JSON.stringify(checkpoint.session), now],
        );
      }
    });
  }

  async callStarted(
    runId: string,
    owner: string,
    call: { readonly callKey: string; readonly attempt: number },
    state: StoredState | undefined,
    leaseMs: number,
  ): Promise<void> {
    const now = Date.now();
    // One statement, so one transaction: the lease check, the turn's state and the call's start.
    // Prepared once per connection (named): the hot statements skip parsing and planning.
    const done = await this.#db.query("callStarted", runId, {
      name: "toolwright_call_started",
      text: `WITH held AS (
         UPDATE toolwright_runs SET state = COALESCE($4, state), state_digest = COALESCE($5, state_digest),
           lease_until = $6, updated_at = $7
         WHERE run_id = $1 AND lease_owner = $8 RETURNING run_id)
       INSERT INTO toolwright_calls (run_id, call_key, attempt, status) SELECT run_id, $2, $3, 'started' FROM held
       ON CONFLICT (run_id, call_key, attempt) DO UPDATE SET status = 'started', outcome = NULL`,
      values: [
        runId,
        call.callKey,
        call.attempt,
        state?.text ?? null,
        state?.digest ?? null,
        now + leaseMs,
        now,
        owner,
      ],
    });
    if (done.rowCount === 0) throw new LeaseLostError(runId, owner);
  }

  async callFinished(
    runId: string,
    owner: string,
    call: { readonly callKey: string; readonly attempt: number; readonly outcome: RecordedOutcome },
  ): Promise<void> {
    const done = await this.#db.query(
      "callFinished",
      runId,
      {
        name: "toolwright_call_finished",
        text: `UPDATE toolwright_calls SET status = 'finished', outcome = $1
         WHERE run_id = $2 AND call_key = $3 AND attempt = $4
           AND EXISTS (SELECT 1 FROM toolwright_runs WHERE run_id = $2 AND lease_owner = $5)`,
        values: [JSON.stringify(call.outcome), runId, call.callKey, call.attempt, owner],
      },
      "relaxed",
    );
    if (done.rowCount === 0) throw new LeaseLostError(runId, owner);
  }

  async approve(
    runId: string,
    callId: string,
    options: { readonly args?: Readonly<Record<string, unknown>> } = {},
  ): Promise<void> {
    await this.#decide(runId, callId, { kind: "approve", ...(options.args ? { args: options.args } : {}) });
  }

  async reject(runId: string, callId: string, message?: string): Promise<void> {
    await this.#decide(runId, callId, { kind: "reject", ...(message === undefined ? {} : { message }) });
  }

  async cancel(runId: string, reason?: string): Promise<void> {
    await this.#db.transaction("cancel", runId, async (db) => {
      const row = (await db.query<RunRow>("SELECT * FROM toolwright_runs WHERE run_id = $1 FOR UPDATE", [runId]))
        .rows[0];
      if (!row) throw new RunNotFoundError(runId);
      checkCancellable(row);
      await db.query(
        `UPDATE toolwright_runs SET status = 'failed', error = $1, lease_owner = NULL, lease_until = 0, updated_at = $2
         WHERE run_id = $3`,
        [cancelledText(reason), Date.now(), runId],
      );
    });
  }

  async retry(runId: string): Promise<void> {
    await this.#db.transaction("retry", runId, async (db) => {
      const row = (await db.query<RunRow>("SELECT * FROM toolwright_runs WHERE run_id = $1 FOR UPDATE", [runId]))
        .rows[0];
      if (!row) throw new RunNotFoundError(runId);
      checkRetriable(row);
      await db.query(
        `UPDATE toolwright_runs SET status = 'ready', error = NULL, lease_owner = NULL, lease_until = 0, updated_at = $1
         WHERE run_id = $2`,
        [Date.now(), runId],
      );
    });
  }

  async get(runId: string): Promise<StoredRun | undefined> {
    const found = await this.#db.query<RunRow>("get", runId, {
      text: "SELECT * FROM toolwright_runs WHERE run_id = $1",
      values: [runId],
    });
    const row = found.rows[0];
    return row ? storedRun(row) : undefined;
  }

  async list(filter: RunFilter = {}): Promise<StoredRun[]> {
    const rows = await this.#db.query<RunRow>("list", undefined, {
      text: `SELECT * FROM toolwright_runs WHERE ($1::text IS NULL OR status = $1) AND ($2::text IS NULL OR agent = $2)
       ORDER BY updated_at LIMIT $3`,
      values: [filter.status ?? null, filter.agent ?? null, filter.limit ?? 100],
    });
    return rows.rows.map(listedRun);
  }

  async session(sessionId: string): Promise<Message[]> {
    const found = await this.#db.query<{ messages: string }>("session", undefined, {
      text: "SELECT messages FROM toolwright_sessions WHERE session_id = $1",
      values: [sessionId],
    });
    const row = found.rows[0];
    return row ? parseColumn<Message[]>(`session ${sessionId}`, "messages", row.messages) : [];
  }

  async close(): Promise<void> {
    await this.#db.close();
  }

  /** A run's recorded calls, read in a claim's transaction, or on its own (`operation`) after a claim. */
  async #calls(db: pg.PoolClient | string, runId: string): Promise<CallRow[]> {
    const query = {
      text: "SELECT call_key, attempt, status, outcome FROM toolwright_calls WHERE run_id = $1",
      values: [runId],
    };
    const calls =
      typeof db === "string" ? await this.#db.query<CallRow>(db, runId, query) : await db.query<CallRow>(query);
    return calls.rows;
  }

  async #decide(runId: string, callId: string, decision: Decision): Promise<void> {
    await this.#db.transaction(decision.kind, runId, async (db) => {
      const row = (await db.query<RunRow>("SELECT * FROM toolwright_runs WHERE run_id = $1 FOR UPDATE", [runId]))
        .rows[0];
      if (!row) throw new RunNotFoundError(runId);
      const decided = decide(runId, statusOf(row), stateOf(row), callId, decision);
      await db.query(
        "UPDATE toolwright_runs SET state = $1, state_digest = $5, status = $2, updated_at = $3 WHERE run_id = $4",
        [decided.state.text, decided.status, Date.now(), runId, decided.state.digest],
      );
      if (decided.forget)
        await db.query("DELETE FROM toolwright_calls WHERE run_id = $1 AND call_key = $2", [runId, decided.forget]);
    });
  }

  async #migrate(): Promise<void> {
    await this.#db.transaction("migrate", undefined, async (db) => {
      await db.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
      await db.query(
        "CREATE TABLE IF NOT EXISTS toolwright_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)",
      );
      const current = Number(
        (await db.query<{ current: number }>("SELECT COALESCE(MAX(version), 0) AS current FROM toolwright_migrations"))
          .rows[0]?.current ?? 0,
      );
      if (current > SCHEMA_VERSION) throw new SchemaVersionError(current, SCHEMA_VERSION);
      for (const m of MIGRATIONS) {
        if (m.version <= current) continue;
        await db.query(m.postgres);
        await db.query("INSERT INTO toolwright_migrations (version, applied_at) VALUES ($1, $2)", [
          m.version,
          Date.now(),
        ]);
      }
    });
  }
}
