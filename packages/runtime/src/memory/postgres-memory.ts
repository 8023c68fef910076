import pg from "pg";
import type { PostgresPool, PostgresPoolOptions } from "../drivers/postgres.js";
import { type MemoryEntry, type MemoryStore, searchTerms } from "./memory-store.js";

/** Options of {@link PostgresMemoryStore}: a `pg` pool's (e.g. `connectionString`), or an open pool. */
export type PostgresMemoryOptions = PostgresPoolOptions | { readonly pool: PostgresPool };

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
  CREATE INDEX IF NOT EXISTS toolwright_memory_search ON toolwright_memory USING GIN (search);
  CREATE TABLE IF NOT EXISTS toolwright_memory_format (version INTEGER NOT NULL);`;

/**
 * PostgreSQL's text cannot hold U+0000, which the other stores keep as given. Every string
 * is stored with U+0000 written as U+FFFF U+FFFE and U+FFFF (a noncharacter, for a
 * program's internal use) doubled; both are no word to the full-text parser, so the words
 * on either side of a U+0000 stay words.
 */
const ESCAPE = "\uFFFF";
const NUL_ESCAPED = "\uFFFF\uFFFE";

function encode(value: string): string {
  if (!value.includes("\u0000") && !value.includes(ESCAPE)) return value;
  return value.replaceAll(ESCAPE, ESCAPE + ESCAPE).replaceAll("\u0000", NUL_ESCAPED);
}

function decode(value: string): string {
  if (!value.includes(ESCAPE)) return value;
  return value.replace(/\uFFFF([\uFFFF\uFFFE])/g, (_, next: string) => (next === ESCAPE ? ESCAPE : "\u0000"));
}

/**
 * Tables made before the escape (format 1) may hold U+FFFF as it is: they are rewritten
 * once, under the schema lock, with it doubled, so every entry reads as it was written.
 */
const TO_FORMAT_1 = `
  UPDATE toolwright_memory SET scope = replace(scope, $1, $2), key = replace(key, $1, $2), text = replace(text, $1, $2)
  WHERE strpos(scope || key || text, $1) > 0`;

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
      await client.query("BEGIN");
      const format = await client.query("SELECT version FROM toolwright_memory_format");
      if (format.rowCount === 0) {
        await client.query(TO_FORMAT_1, [ESCAPE, ESCAPE + ESCAPE]);
        await client.query("INSERT INTO toolwright_memory_format (version) VALUES (1)");
      }
      await client.query("COMMIT");
    } catch (error) {
      // Dropped, not reused: the connection may hold an aborted transaction and the lock.
      client.release(error instanceof Error ? error : true);
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
      [encode(scope), encode(key), encode(text), Date.now()],
    );
  }

  async get(scope: string, key: string): Promise<MemoryEntry | undefined> {
    const { rows } = await this.#pool.query<Row>(
      "SELECT key, text, updated_at FROM toolwright_memory WHERE scope = $1 AND key = $2",
      [encode(scope), encode(key)],
    );
    return rows[0] && entry(rows[0]);
  }

  async delete(scope: string, key: string): Promise<boolean> {
    const result = await this.#pool.query("DELETE FROM toolwright_memory WHERE scope = $1 AND key = $2", [
      encode(scope),
      encode(key),
    ]);
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
      [encode(scope), terms.join(" | "), limit],
    );
    return rows.map(entry);
  }

  async close(): Promise<void> {
    if (this.#owned) await this.#pool.end();
  }
}

function entry(row: Row): MemoryEntry {
  return { key: decode(row.key), text: decode(row.text), updatedAt: Number(row.updated_at) };
}
