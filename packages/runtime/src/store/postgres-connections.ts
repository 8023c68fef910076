import pg from "pg";
import type { PostgresPoolOptions } from "../drivers/postgres.js";
import { isPostgresOutage, outageOf } from "./faults.js";

/**
 * For commits that may be lost if the database server itself crashes (never torn, never on
 * a worker's crash): lease renewals, and a call's end. A lost end makes the call look
 * unfinished, so it is run again only if idempotent, else put to a person: safe, and it
 * spares the fsync that dominates a call's cost. A call's start always waits for the disk.
 */
const RELAXED_COMMIT = "-c synchronous_commit=off";

/** Which connections a statement runs on: commits that wait for the disk, or ({@link RELAXED_COMMIT}) not. */
export type Commit = "durable" | "relaxed";

/**
 * The PostgreSQL store's connections: two pools (see {@link RELAXED_COMMIT}), each with an
 * `error` listener, and each connection they lend watched while it is lent. A connection
 * the server ends (a restart, a failover, an idle timeout) is dropped instead of crashing
 * the process; the operation using it fails with `StoreUnavailableError`, the next one
 * opens a new connection.
 */
export class PostgresConnections {
  readonly #pools: Readonly<Record<Commit, pg.Pool>>;
  #closed = false;

  constructor(options: PostgresPoolOptions) {
    const relaxed = [options.options, RELAXED_COMMIT].filter(Boolean).join(" ");
    this.#pools = {
      durable: new pg.Pool(options as pg.PoolConfig),
      relaxed: new pg.Pool({ ...options, options: relaxed } as pg.PoolConfig),
    };
    // An idle connection that ended: pg-pool has removed it already; the next query opens another.
    for (const pool of Object.values(this.#pools)) pool.on("error", () => {});
  }

  /** One statement (its own transaction); a lost connection is a `StoreUnavailableError` naming `operation`. */
  async query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    operation: string,
    runId: string | undefined,
    query: pg.QueryConfig,
    commit: Commit = "durable",
  ): Promise<pg.QueryResult<R>> {
    try {
      return await this.#pools[commit].query<R>(query);
    } catch (error) {
      throw outageOf(isPostgresOutage, operation, error, runId);
    }
  }

  /**
   * Runs `work` in one transaction on one connection: all of it, or (on any error) none of
   * it. A connection that broke meanwhile is closed, not put back in the pool.
   */
  async transaction<T>(
    operation: string,
    runId: string | undefined,
    work: (db: pg.PoolClient) => Promise<T>,
  ): Promise<T> {
    let db: pg.PoolClient;
    try {
      db = await this.#pools.durable.connect();
    } catch (error) {
      throw outageOf(isPostgresOutage, operation, error, runId);
    }
    let broken: Error | undefined;
    // The statement in flight fails with the same error; this keeps it from crashing the process.
    const onError = (error: Error) => {
      broken = error;
    };
    db.on("error", onError);
    try {
      await db.query("BEGIN");
      const out = await work(db);
      await db.query("COMMIT");
      return out;
    } catch (error) {
      if (!broken) await db.query("ROLLBACK").catch((e: Error) => onError(e));
      throw outageOf(isPostgresOutage, operation, error, runId);
    } finally {
      db.off("error", onError);
      db.release(broken);
    }
  }

  /** Closes both pools; closing again does nothing. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all(Object.values(this.#pools).map((pool) => pool.end()));
  }
}
