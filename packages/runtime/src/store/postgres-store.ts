import pg from "pg";
import type { Message } from "../model/messages.js";
import { LeaseLostError, RunExistsError, RunNotFoundError, SchemaVersionError } from "./errors.js";
import { MIGRATIONS, SCHEMA_VERSION } from "./migrations.js";
import {
  type CallRow,
  checkClaimable,
  claimedRun,
  newRunValues,
  type RunRow,
  stateOf,
  statusOf,
  storedRun,
} from "./rows.js";
import type {
  Checkpoint,
  ClaimedRun,
  NewRun,
  RecordedOutcome,
  RunFilter,
  RunStore,
  StoredRun,
  StoredState,
} from "./run-store.js";
import { type Decision, decide, parseColumn } from "./stored-state.js";

/** Options of {@link PostgresStore}: a `pg` pool's, e.g. `connectionString`, `host`, `port`, `max`. */
export type PostgresStoreOptions = pg.PoolConfig;

/**
 * For commits that may be lost if the database server itself crashes (never torn, never on
 * a worker's crash): lease renewals, and a call's end. A lost end makes the call look
 * unfinished, so it is run again only if idempotent, else put to a person: safe, and it
 * spares the fsync that dominates a call's cost. A call's start always waits for the disk.
 */
const RELAXED_COMMIT = "-c synchronous_commit=off";

/** Any number, so two processes migrating at once take turns. */
const MIGRATION_LOCK = 720_412;

/**
 * A {@link RunStore} on PostgreSQL (`pg`), for many workers on many machines. Leases are
 * taken with row locks: a worker looking for work skips rows another worker is claiming
 * (`FOR UPDATE SKIP LOCKED`), so no two workers ever take the same run.
 */
export class PostgresStore implements RunStore {
  readonly #pool: pg.Pool;
  /** Connections whose commits do not wait for the disk (see {@link RELAXED_COMMIT}). */
  readonly #relaxed: pg.Pool;

  private constructor(options: PostgresStoreOptions) {
    this.#pool = new pg.Pool(options);
    const relaxed = [options.options, RELAXED_COMMIT].filter(Boolean).join(" ");
    this.#relaxed = new pg.Pool({ ...options, options: relaxed });
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
    const inserted = await this.#pool.query(
      `INSERT INTO toolwright_runs (run_id, agent, session_id, status, input, lease_owner, lease_until, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) ON CONFLICT (run_id) DO NOTHING`,
      newRunValues(run, now),
    );
    if (inserted.rowCount === 0) throw new RunExistsError(run.runId);
  }

  async claim(runId: string, owner: string, leaseMs: number): Promise<ClaimedRun> {
    return this.#tx(async (db) => {
      const row = (await db.query<RunRow>("SELECT * FROM toolwright_runs WHERE run_id = $1 FOR UPDATE", [runId]))
        .rows[0];
      if (!row) throw new RunNotFoundError(runId);
      const now = Date.now();
      checkClaimable(row, owner, now);
      return this.#take(db, row, owner, now + leaseMs);
    });
  }

  async claimNext(agents: readonly string[], owner: string, leaseMs: number): Promise<ClaimedRun | undefined> {
    if (agents.length === 0) return undefined;
    const now = Date.now();
    // One statement: the row is locked, skipped by every other claimer, and taken at once.
    const row = (
      await this.#pool.query<RunRow>({
        name: "toolwright_claim_next",
        text: `UPDATE toolwright_runs SET status = 'running', lease_owner = $3, lease_until = $4
         WHERE run_id = (
           SELECT run_id FROM toolwright_runs
           WHERE agent = ANY($1) AND (status = 'ready' OR (status = 'running' AND lease_until < $2))
           ORDER BY updated_at LIMIT 1 FOR UPDATE SKIP LOCKED)
         RETURNING *`,
        values: [agents, now, owner, now + leaseMs],
      })
    ).rows[0];
    // The run's calls change only under its lease, which is this worker's now.
    return row ? claimedRun(row, await this.#calls(this.#pool, row.run_id)) : undefined;
  }

  async renew(runId: string, owner: string, leaseMs: number): Promise<void> {
    const done = await this.#relaxed.query({
      name: "toolwright_renew",
      text: "UPDATE toolwright_runs SET lease_until = $1 WHERE run_id = $2 AND lease_owner = $3",
      values: [Date.now() + leaseMs, runId, owner],
    });
    if (done.rowCount === 0) throw new LeaseLostError(runId, owner);
  }

  async checkpoint(runId: string, owner: string, checkpoint: Checkpoint, leaseMs: number): Promise<void> {
    const now = Date.now();
    const held = checkpoint.status === "running";
    await this.#tx(async (db) => {
      const done = await db.query<{ session_id: string | null }>(
        `UPDATE toolwright_runs SET state = $1, state_digest = $10, status = $2, output = $3, error = $4, lease_owner = $5,
           lease_until = $6, updated_at = $7
         WHERE run_id = $8 AND lease_owner = $9 RETURNING session_id`,
        [
          checkpoint.state.text,
          checkpoint.status,
          checkpoint.output ?? null,
          checkpoint.error ?? null,
          held ? owner : null,
          held ? now + leaseMs : 0,
          now,
          runId,
          owner,
          checkpoint.state.digest,
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
    const done = await this.#pool.query({
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
    const done = await this.#relaxed.query({
      name: "toolwright_call_finished",
      text: `UPDATE toolwright_calls SET status = 'finished', outcome = $1
       WHERE run_id = $2 AND call_key = $3 AND attempt = $4
         AND EXISTS (SELECT 1 FROM toolwright_runs WHERE run_id = $2 AND lease_owner = $5)`,
      values: [JSON.stringify(call.outcome), runId, call.callKey, call.attempt, owner],
    });
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

  async get(runId: string): Promise<StoredRun | undefined> {
    const row = (await this.#pool.query<RunRow>("SELECT * FROM toolwright_runs WHERE run_id = $1", [runId])).rows[0];
    return row ? storedRun(row) : undefined;
  }

  async list(filter: RunFilter = {}): Promise<StoredRun[]> {
    const rows = await this.#pool.query<RunRow>(
      `SELECT * FROM toolwright_runs WHERE ($1::text IS NULL OR status = $1) AND ($2::text IS NULL OR agent = $2)
       ORDER BY updated_at LIMIT $3`,
      [filter.status ?? null, filter.agent ?? null, filter.limit ?? 100],
    );
    return rows.rows.map(storedRun);
  }

  async session(sessionId: string): Promise<Message[]> {
    const row = (
      await this.#pool.query<{ messages: string }>("SELECT messages FROM toolwright_sessions WHERE session_id = $1", [
        sessionId,
      ])
    ).rows[0];
    return row ? parseColumn<Message[]>(`session ${sessionId}`, "messages", row.messages) : [];
  }

  async close(): Promise<void> {
    await Promise.all([this.#pool.end(), this.#relaxed.end()]);
  }

  async #take(db: pg.PoolClient, row: RunRow, owner: string, until: number): Promise<ClaimedRun> {
    await db.query(
      "UPDATE toolwright_runs SET status = 'running', lease_owner = $1, lease_until = $2 WHERE run_id = $3",
      [owner, until, row.run_id],
    );
    return claimedRun(row, await this.#calls(db, row.run_id));
  }

  async #calls(db: pg.Pool | pg.PoolClient, runId: string): Promise<CallRow[]> {
    const calls = await db.query<CallRow>(
      "SELECT call_key, attempt, status, outcome FROM toolwright_calls WHERE run_id = $1",
      [runId],
    );
    return calls.rows;
  }

  async #decide(runId: string, callId: string, decision: Decision): Promise<void> {
    await this.#tx(async (db) => {
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
    await this.#tx(async (db) => {
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

  /** Runs `work` in one transaction on one connection: all of it, or (on any error) none of it. */
  async #tx<T>(work: (db: pg.PoolClient) => Promise<T>): Promise<T> {
    const db = await this.#pool.connect();
    try {
      await db.query("BEGIN");
      const out = await work(db);
      await db.query("COMMIT");
      return out;
    } catch (error) {
      await db.query("ROLLBACK");
      throw error;
    } finally {
      db.release();
    }
  }
}
