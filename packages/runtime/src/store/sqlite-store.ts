import Database from "better-sqlite3";
import type { Message } from "../model/messages.js";
import { LeaseLostError, RunExistsError, RunNotFoundError, SchemaVersionError, StoredRunError } from "./errors.js";
import { isSqliteBusy, outageOf } from "./faults.js";
import { MIGRATIONS, SCHEMA_VERSION } from "./migrations.js";
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

/** Options of {@link SqliteStore}. */
export interface SqliteStoreOptions {
  /** A database file (created when missing), or `":memory:"` for one process. */
  readonly path: string;
  /**
   * How long a write waits for another process's transaction before it fails with
   * `StoreUnavailableError` (default 5,000 ms). A running worker then tries again until its
   * lease runs out. better-sqlite3 waits synchronously: the process does nothing else meanwhile.
   */
  readonly busyTimeoutMs?: number;
}

/**
 * A {@link RunStore} in one SQLite file (better-sqlite3): the embedded default. Processes on
 * one machine share the file; every change is one write transaction, which SQLite runs one
 * at a time, so a lease is taken by exactly one of them.
 */
export class SqliteStore implements RunStore {
  readonly #db: Database.Database;
  /** Prepared once each: compiling SQL costs more than running these small statements. */
  readonly #statements = new Map<string, Database.Statement>();

  constructor(options: SqliteStoreOptions) {
    this.#db = new Database(options.path, { timeout: options.busyTimeoutMs ?? 5_000 });
    // WAL lets readers work beside the writer; NORMAL syncs at checkpoints, safe against process crashes.
    this.#db.pragma("journal_mode = WAL");
    this.#db.pragma("synchronous = NORMAL");
    this.#db.pragma("foreign_keys = ON");
    this.#migrate();
  }

  async create(run: NewRun): Promise<void> {
    const now = Date.now();
    this.#write("create", run.runId, () => {
      if (this.#row(run.runId)) throw new RunExistsError(run.runId);
      this.#sql(
        `INSERT INTO toolwright_runs (${NEW_RUN_COLUMNS}, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(...newRunValues(run, now), now);
    });
  }

  async claim(runId: string, owner: string, leaseMs: number, agent: RunAgent): Promise<ClaimedRun> {
    return this.#write("claim", runId, () => {
      const row = this.#row(runId);
      if (!row) throw new RunNotFoundError(runId);
      const now = Date.now();
      checkClaimable(row, owner, now);
      // Read and checked before the lease is written: a refused claim changes nothing.
      const claimed = claimedRun(row, this.#calls(runId), agent);
      this.#take(runId, owner, now + leaseMs);
      return claimed;
    });
  }

  async claimNext(agents: readonly RunAgent[], owner: string, leaseMs: number): Promise<ClaimedRun | undefined> {
    if (agents.length === 0) return undefined;
    const taken = this.#write("claimNext", undefined, () => {
      const now = Date.now();
      const row = this.#sql(
        `SELECT * FROM toolwright_runs
           WHERE agent IN (SELECT value ->> 0 FROM json_each(@agents))
             AND (status = 'ready' OR (status = 'running' AND lease_until < @now))
             AND (tools IS NULL OR tools IN (SELECT value ->> 1 FROM json_each(@agents) WHERE value ->> 0 = agent))
           ORDER BY updated_at LIMIT 1`,
      ).get({ agents: JSON.stringify(agents.map((a) => [a.name, toolsText(a.toolNames)])), now }) as RunRow | undefined;
      if (!row) return undefined;
      const agent = agents.find((a) => a.name === row.agent) as RunAgent;
      try {
        const claimed = claimedRun(row, this.#calls(row.run_id), agent);
        this.#take(row.run_id, owner, now + leaseMs);
        return claimed;
      } catch (error) {
        if (!(error instanceof StoredRunError)) throw error;
        // Taken out of the queue in the same transaction, so the next claim goes on with the others.
        this.#sql(
          `UPDATE toolwright_runs SET status = 'failed', error = ?, lease_owner = NULL, lease_until = 0, updated_at = ?
             WHERE run_id = ?`,
        ).run(errorText(error), now, row.run_id);
        return error;
      }
    });
    if (taken instanceof StoredRunError) throw taken;
    return taken;
  }

  async renew(runId: string, owner: string, leaseMs: number): Promise<void> {
    const done = this.#guard("renew", runId, () =>
      this.#sql("UPDATE toolwright_runs SET lease_until = ? WHERE run_id = ? AND lease_owner = ?").run(
        Date.now() + leaseMs,
        runId,
        owner,
      ),
    );
    if (done.changes === 0) throw new LeaseLostError(runId, owner);
  }

  async checkpoint(runId: string, owner: string, checkpoint: Checkpoint, leaseMs: number): Promise<void> {
    const now = Date.now();
    const held = checkpoint.status === "running";
    this.#write("checkpoint", runId, () => {
      // Under this worker's lease, or (tried again after a lost answer) exactly as already written.
      const done = this.#sql(
        `UPDATE toolwright_runs SET state = COALESCE(?, state), state_digest = COALESCE(?, state_digest), status = ?,
             output = ?, error = ?, lease_owner = ?, lease_until = ?, updated_at = ?
           WHERE run_id = ? AND (lease_owner = ? OR (lease_owner IS NULL AND status = ? AND state_digest = ?))`,
      ).run(
        checkpoint.state?.text ?? null,
        checkpoint.state?.digest ?? null,
        checkpoint.status,
        checkpoint.output ?? null,
        checkpoint.error ?? null,
        held ? owner : null,
        held ? now + leaseMs : 0,
        now,
        runId,
        owner,
        checkpoint.status,
        checkpoint.state?.digest ?? null,
      );
      if (done.changes === 0) throw new LeaseLostError(runId, owner);
      if (checkpoint.session) this.#saveSession(runId, checkpoint.session, now);
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
    this.#write("callStarted", runId, () => {
      const done = state
        ? this.#sql(
            "UPDATE toolwright_runs SET state = ?, state_digest = ?, lease_until = ?, updated_at = ? WHERE run_id = ? AND lease_owner = ?",
          ).run(state.text, state.digest, now + leaseMs, now, runId, owner)
        : this.#sql("UPDATE toolwright_runs SET lease_until = ? WHERE run_id = ? AND lease_owner = ?").run(
            now + leaseMs,
            runId,
            owner,
          );
      if (done.changes === 0) throw new LeaseLostError(runId, owner);
      this.#sql(
        `INSERT INTO toolwright_calls (run_id, call_key, attempt, status) VALUES (?, ?, ?, 'started')
             ON CONFLICT (run_id, call_key, attempt) DO UPDATE SET status = 'started', outcome = NULL`,
      ).run(runId, call.callKey, call.attempt);
    });
  }

  async callFinished(
    runId: string,
    owner: string,
    call: { readonly callKey: string; readonly attempt: number; readonly outcome: RecordedOutcome },
  ): Promise<void> {
    // One statement, so one transaction: written only while this worker holds the run.
    const done = this.#guard("callFinished", runId, () =>
      this.#sql(
        `UPDATE toolwright_calls SET status = 'finished', outcome = ?
         WHERE run_id = ? AND call_key = ? AND attempt = ?
           AND EXISTS (SELECT 1 FROM toolwright_runs WHERE run_id = ? AND lease_owner = ?)`,
      ).run(JSON.stringify(call.outcome), runId, call.callKey, call.attempt, runId, owner),
    );
    if (done.changes === 0) throw new LeaseLostError(runId, owner);
  }

  async approve(
    runId: string,
    callId: string,
    options: { readonly args?: Readonly<Record<string, unknown>> } = {},
  ): Promise<void> {
    this.#decide(runId, callId, { kind: "approve", ...(options.args ? { args: options.args } : {}) });
  }

  async reject(runId: string, callId: string, message?: string): Promise<void> {
    this.#decide(runId, callId, { kind: "reject", ...(message === undefined ? {} : { message }) });
  }

  async cancel(runId: string, reason?: string): Promise<void> {
    this.#write("cancel", runId, () => {
      const row = this.#row(runId);
      if (!row) throw new RunNotFoundError(runId);
      checkCancellable(row);
      this.#sql(
        `UPDATE toolwright_runs SET status = 'failed', error = ?, lease_owner = NULL, lease_until = 0, updated_at = ?
           WHERE run_id = ?`,
      ).run(cancelledText(reason), Date.now(), runId);
    });
  }

  async retry(runId: string): Promise<void> {
    this.#write("retry", runId, () => {
      const row = this.#row(runId);
      if (!row) throw new RunNotFoundError(runId);
      checkRetriable(row);
      this.#sql(
        `UPDATE toolwright_runs SET status = 'ready', error = NULL, lease_owner = NULL, lease_until = 0, updated_at = ?
           WHERE run_id = ?`,
      ).run(Date.now(), runId);
    });
  }

  async get(runId: string): Promise<StoredRun | undefined> {
    const row = this.#guard("get", runId, () => this.#row(runId));
    return row ? storedRun(row) : undefined;
  }

  async list(filter: RunFilter = {}): Promise<StoredRun[]> {
    const rows = this.#guard(
      "list",
      undefined,
      () =>
        this.#sql(
          `SELECT * FROM toolwright_runs WHERE (@status IS NULL OR status = @status) AND (@agent IS NULL OR agent = @agent)
             ORDER BY updated_at LIMIT @limit`,
        ).all({ status: filter.status ?? null, agent: filter.agent ?? null, limit: filter.limit ?? 100 }) as RunRow[],
    );
    return rows.map(listedRun);
  }

  async session(sessionId: string): Promise<Message[]> {
    const row = this.#guard(
      "session",
      undefined,
      () =>
        this.#sql("SELECT messages FROM toolwright_sessions WHERE session_id = ?").get(sessionId) as
          | { messages: string }
          | undefined,
    );
    return row ? parseColumn<Message[]>(`session ${sessionId}`, "messages", row.messages) : [];
  }

  async close(): Promise<void> {
    this.#db.close();
  }

  #sql(text: string): Database.Statement {
    let statement = this.#statements.get(text);
    if (!statement) {
      statement = this.#db.prepare(text);
      this.#statements.set(text, statement);
    }
    return statement;
  }

  #row(runId: string): RunRow | undefined {
    return this.#sql("SELECT * FROM toolwright_runs WHERE run_id = ?").get(runId) as RunRow | undefined;
  }

  /**
   * Runs `work` in one write transaction (BEGIN IMMEDIATE): all of it or none of it. A lock
   * held by another process past the busy timeout is a `StoreUnavailableError`.
   */
  #write<T>(operation: string, runId: string | undefined, work: () => T): T {
    return this.#guard(operation, runId, () => this.#db.transaction(work).immediate());
  }

  /** Runs `work` (a read, or one statement: its own transaction); a lock that outlasted the busy timeout is a `StoreUnavailableError`. */
  #guard<T>(operation: string, runId: string | undefined, work: () => T): T {
    try {
      return work();
    } catch (error) {
      throw outageOf(isSqliteBusy, operation, error, runId);
    }
  }

  #take(runId: string, owner: string, until: number): void {
    this.#sql("UPDATE toolwright_runs SET status = 'running', lease_owner = ?, lease_until = ? WHERE run_id = ?").run(
      owner,
      until,
      runId,
    );
  }

  #calls(runId: string): CallRow[] {
    return this.#sql("SELECT call_key, attempt, status, outcome FROM toolwright_calls WHERE run_id = ?").all(
      runId,
    ) as CallRow[];
  }

  #decide(runId: string, callId: string, decision: Decision): void {
    this.#write(decision.kind, runId, () => {
      const row = this.#row(runId);
      if (!row) throw new RunNotFoundError(runId);
      const decided = decide(runId, statusOf(row), stateOf(row), callId, decision);
      this.#sql(
        "UPDATE toolwright_runs SET state = ?, state_digest = ?, status = ?, updated_at = ? WHERE run_id = ?",
      ).run(decided.state.text, decided.state.digest, decided.status, Date.now(), runId);
      if (decided.forget)
        this.#sql("DELETE FROM toolwright_calls WHERE run_id = ? AND call_key = ?").run(runId, decided.forget);
    });
  }

  #saveSession(runId: string, messages: readonly Message[], now: number): void {
    const row = this.#row(runId);
    if (!row?.session_id) return;
    this.#sql(
      `INSERT INTO toolwright_sessions (session_id, messages, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (session_id) DO UPDATE SET messages = excluded.messages, updated_at = excluded.updated_at`,
    ).run(row.session_id, JSON.stringify(messages), now);
  }

  #migrate(): void {
    this.#write("migrate", undefined, () => {
      this.#db.exec(
        "CREATE TABLE IF NOT EXISTS toolwright_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)",
      );
      const { current } = this.#sql("SELECT COALESCE(MAX(version), 0) AS current FROM toolwright_migrations").get() as {
        current: number;
      };
      if (current > SCHEMA_VERSION) throw new SchemaVersionError(current, SCHEMA_VERSION);
      for (const m of MIGRATIONS) {
        if (m.version <= current) continue;
        this.#db.exec(m.sqlite);
        this.#sql("INSERT INTO toolwright_migrations (version, applied_at) VALUES (?, ?)").run(m.version, Date.now());
      }
    });
  }
}
