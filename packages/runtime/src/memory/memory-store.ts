/** One remembered fact. */
export interface MemoryEntry {
  readonly key: string;
  readonly text: string;
  /** When it was last written, in milliseconds since the epoch. */
  readonly updatedAt: number;
}

/**
 * Where memory lives: the backend behind `ctx.memory` and the memory tools. Every method
 * works inside one scope (a user's or a session's), so scopes never see each other.
 * Implementations: {@link InMemoryStore} (the default, one process), SQLite FTS5 and
 * PostgreSQL full-text (`toolwright/memory`). A write is one statement or transaction:
 * it is stored whole or not at all.
 */
export interface MemoryStore {
  /** Writes `text` under `key`, replacing what was there. */
  put(scope: string, key: string, text: string): Promise<void>;
  get(scope: string, key: string): Promise<MemoryEntry | undefined>;
  /** True when there was something to delete. */
  delete(scope: string, key: string): Promise<boolean>;
  /** The best matches for `query` (any of its words, in keys or texts), best first; `[]` when none. */
  search(scope: string, query: string, limit: number): Promise<MemoryEntry[]>;
  /** Releases connections, when the store holds any. */
  close?(): Promise<void>;
}

/** The words of a search, lower-cased: letters and digits only, so no query syntax reaches a database. */
export function searchTerms(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
  return [...new Set(words)].slice(0, 32);
}
