import pg from "pg";
import { type MemoryEntry, type MemoryStore, searchTerms } from "./memory-store.js";

/** Options of {@link PostgresMemoryStore}: a `pg` pool's (e.g. `connectionString`), or an open pool. */
export type PostgresMemoryOptions = pg.PoolConfig | { readonly pool: pg.Pool };

// Its own table, created when missing, so it can share a database with the run store. The
// 'simple' configuration neither stems nor drops stop words, as SQLite's FTS5 default does.
const SCHEMA = `
  CREATE TABLE IF NOT EXISTS toolwright_memory (
    scope TEXT NOT NULL,
    key TEXT NOT NULL,
    text TEXT NOT NULL,
    updated_at BIGINT NOT NULL,
    search tsvector GENERATED ALWAYS AS (to_tsvector('simple', key || ' ' || text)) STORED,
    PRIMARY KEY (scope, key)
  );
  CREATE INDEX IF NOT EXISTS toolwright_memory_search ON toolwright_memory USING GIN (search);`;

/** Any number, so two processes creating the table at once take turns. */
const SCHEMA_LOCK = 720_413;

interface Row {
  readonly key: string;
  readonly text: string;
  readonly updated_at: string;
}

/** Memory in PostgreSQL, searched with its full-text search (a GIN-indexed tsvector) and ranked by ts_rank. */
export class PostgresMemoryStore implements MemoryStore {
  readonly #pool: pg.Pool;
  readonly #owned: boolean;

  private constructor(pool: pg.Pool, owned: boolean) {
    this.#pool = pool;
    this.#owned = owned;
  }

  /** Connects and creates the table when missing. */
  static async open(options: PostgresMemoryOptions): Promise<PostgresMemoryStore> {
    const given = "pool" in options && options.pool instanceof pg.Pool ? options.pool : undefined;
    const store = new PostgresMemoryStore(given ?? new pg.Pool(options as pg.PoolConfig), given === undefined);
    const client = await store.#pool.connect();
    try {
      await client.query("SELECT pg_advisory_lock($1)", [SCHEMA_LOCK]);
      await client.query(SCHEMA);
    } catch (error) {
      client.release();
      await store.close();
      throw error;
    }
    await client.query("SELECT pg_advisory_unlock($1)", [SCHEMA_LOCK]);
    client.release();
    return store;
  }

  async put(scope: string, key: string, text: string): Promise<void> {
    await this.#pool.query(
      `INSERT INTO toolwright_memory (scope, key, text, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (scope, key) DO UPDATE SET text = EXCLUDED.text, updated_at = EXCLUDED.updated_at`,
      [scope, key, text, Date.now()],
    );
  }

  async get(scope: string, key: string): Promise<MemoryEntry | undefined> {
    const { rows } = await this.#pool.query<Row>(
      "SELECT key, text, updated_at FROM toolwright_memory WHERE scope = $1 AND key = $2",
      [scope, key],
    );
    return rows[0] && entry(rows[0]);
  }

  async delete(scope: string, key: string): Promise<boolean> {
    const result = await this.#pool.query("DELETE FROM toolwright_memory WHERE scope = $1 AND key = $2", [scope, key]);
    return (result.rowCount ?? 0) > 0;
  }

  async search(scope: string, query: string, limit: number): Promise<MemoryEntry[]> {
    const terms = searchTerms(query);
    if (terms.length === 0) return [];
    // Only letters and digits reach to_tsquery, so no word can be read as query syntax.
    const { rows } = await this.#pool.query<Row>(
      `SELECT key, text, updated_at FROM toolwright_memory, to_tsquery('simple', $2) q
       WHERE scope = $1 AND search @@ q
       ORDER BY ts_rank(search, q) DESC, updated_at DESC LIMIT $3`,
      [scope, terms.join(" | "), limit],
    );
    return rows.map(entry);
  }

  async close(): Promise<void> {
    if (this.#owned) await this.#pool.end();
  }
}

function entry(row: Row): MemoryEntry {
  return { key: row.key, text: row.text, updatedAt: Number(row.updated_at) };
}
