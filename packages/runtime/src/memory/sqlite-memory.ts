import Database from "better-sqlite3";
import type { SqliteDatabase } from "../drivers/sqlite.js";
import { type MemoryEntry, type MemoryStore, searchTerms } from "./memory-store.js";

/** Options of {@link SqliteMemoryStore}. */
export interface SqliteMemoryOptions {
  /** A database file (it may be the run store's), or `":memory:"`; or an open better-sqlite3 database. */
  readonly path: string | SqliteDatabase;
}

// Its own tables, created when missing, so it can share a file with the run store.
const SCHEMA = `
  CREATE TABLE IF NOT EXISTS toolwright_memory (
    id INTEGER PRIMARY KEY,
    scope TEXT NOT NULL,
    key TEXT NOT NULL,
    text TEXT NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (scope, key)
  );
  CREATE VIRTUAL TABLE IF NOT EXISTS toolwright_memory_fts USING fts5(
    key, text, content = 'toolwright_memory', content_rowid = 'id'
  );
  CREATE TRIGGER IF NOT EXISTS toolwright_memory_ai AFTER INSERT ON toolwright_memory BEGIN
    INSERT INTO toolwright_memory_fts (rowid, key, text) VALUES (new.id, new.key, new.text);
  END;
  CREATE TRIGGER IF NOT EXISTS toolwright_memory_ad AFTER DELETE ON toolwright_memory BEGIN
    INSERT INTO toolwright_memory_fts (toolwright_memory_fts, rowid, key, text) VALUES ('delete', old.id, old.key, old.text);
  END;
  CREATE TRIGGER IF NOT EXISTS toolwright_memory_au AFTER UPDATE ON toolwright_memory BEGIN
    INSERT INTO toolwright_memory_fts (toolwright_memory_fts, rowid, key, text) VALUES ('delete', old.id, old.key, old.text);
    INSERT INTO toolwright_memory_fts (rowid, key, text) VALUES (new.id, new.key, new.text);
  END;`;

interface Row {
  readonly key: string;
  readonly text: string;
  readonly updated_at: number;
}

/**
 * Memory in SQLite (better-sqlite3), searched with FTS5 and ranked by bm25. The index is
 * kept by triggers in the same statement as the row, so an entry and its index change together.
 */
export class SqliteMemoryStore implements MemoryStore {
  readonly #db: Database.Database;
  readonly #owned: boolean;

  constructor(options: SqliteMemoryOptions) {
    this.#owned = typeof options.path === "string";
    this.#db =
      typeof options.path === "string"
        ? new Database(options.path, { timeout: 5_000 })
        : (options.path as Database.Database);
    this.#db.exec(SCHEMA);
  }

  async put(scope: string, key: string, text: string): Promise<void> {
    this.#db
      .prepare(
        `INSERT INTO toolwright_memory (scope, key, text, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (scope, key) DO UPDATE SET text = excluded.text, updated_at = excluded.updated_at`,
      )
      .run(scope, key, text, Date.now());
  }

  async get(scope: string, key: string): Promise<MemoryEntry | undefined> {
    const row = this.#db
      .prepare("SELECT key, text, updated_at FROM toolwright_memory WHERE scope = ? AND key = ?")
      .get(scope, key) as Row | undefined;
    return row && entry(row);
  }

  async delete(scope: string, key: string): Promise<boolean> {
    return this.#db.prepare("DELETE FROM toolwright_memory WHERE scope = ? AND key = ?").run(scope, key).changes > 0;
  }

  async search(scope: string, query: string, limit: number): Promise<MemoryEntry[]> {
    const terms = searchTerms(query);
    if (terms.length === 0) return [];
    // Each word quoted: FTS5 reads it as a plain term, never as query syntax.
    const match = terms.map((t) => `"${t}"`).join(" OR ");
    const rows = this.#db
      .prepare(
        `SELECT m.key, m.text, m.updated_at FROM toolwright_memory_fts f
         JOIN toolwright_memory m ON m.id = f.rowid
         WHERE toolwright_memory_fts MATCH ? AND m.scope = ?
         ORDER BY bm25(toolwright_memory_fts), m.updated_at DESC LIMIT ?`,
      )
      .all(match, scope, limit) as Row[];
    return rows.map(entry);
  }

  async close(): Promise<void> {
    if (this.#owned) this.#db.close();
  }
}

function entry(row: Row): MemoryEntry {
  return { key: row.key, text: row.text, updatedAt: Number(row.updated_at) };
}
