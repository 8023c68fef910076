// toolwright/memory: the memory tools and the stores behind ctx.memory. The SQLite and
// PostgreSQL stores load their drivers (better-sqlite3, pg: optional peers) only when opened.
import type { PostgresMemoryOptions, PostgresMemoryStore } from "./postgres-memory.js";
import type { SqliteMemoryOptions, SqliteMemoryStore } from "./sqlite-memory.js";

export { InMemoryStore } from "./in-memory-store.js";
export type { Memory, MemoryOptions } from "./memory.js";
export { DEFAULT_MEMORY_CHARS } from "./memory.js";
export type { MemoryEntry, MemoryStore } from "./memory-store.js";
export { memoryTools } from "./memory-tools.js";
export type { PostgresMemoryOptions, PostgresMemoryStore } from "./postgres-memory.js";
export type { SqliteMemoryOptions, SqliteMemoryStore } from "./sqlite-memory.js";

/**
 * Opens memory in a SQLite file (it may be the run store's file), searched with FTS5.
 * Needs `better-sqlite3` installed.
 *
 * @example
 * ```ts
 * const agent = new Agent({ name: "concierge", model, memory: { store: await openSqliteMemory({ path: "app.db" }), scope: "user" } });
 * ```
 */
export async function openSqliteMemory(options: SqliteMemoryOptions): Promise<SqliteMemoryStore> {
  const { SqliteMemoryStore } = await import("./sqlite-memory.js");
  return new SqliteMemoryStore(options);
}

/**
 * Opens memory in PostgreSQL (it may be the run store's database), searched with its
 * full-text search. Needs `pg` installed.
 *
 * @example
 * ```ts
 * const store = await openPostgresMemory({ connectionString: process.env.DATABASE_URL });
 * ```
 */
export async function openPostgresMemory(options: PostgresMemoryOptions): Promise<PostgresMemoryStore> {
  const { PostgresMemoryStore } = await import("./postgres-memory.js");
  return PostgresMemoryStore.open(options);
}
