import { type MemoryEntry, type MemoryStore, searchTerms } from "./memory-store.js";

/**
 * Memory kept in this process (the default): gone when the process ends, shared by every
 * run of the agents given the same instance. Search ranks entries by how many of the
 * query's words they contain, then by recency.
 */
export class InMemoryStore implements MemoryStore {
  readonly #scopes = new Map<string, Map<string, MemoryEntry>>();

  async put(scope: string, key: string, text: string): Promise<void> {
    let entries = this.#scopes.get(scope);
    if (!entries) {
      entries = new Map();
      this.#scopes.set(scope, entries);
    }
    entries.set(key, { key, text, updatedAt: Date.now() });
  }

  async get(scope: string, key: string): Promise<MemoryEntry | undefined> {
    return this.#scopes.get(scope)?.get(key);
  }

  async delete(scope: string, key: string): Promise<boolean> {
    return this.#scopes.get(scope)?.delete(key) ?? false;
  }

  async search(scope: string, query: string, limit: number): Promise<MemoryEntry[]> {
    const terms = searchTerms(query);
    const entries = this.#scopes.get(scope);
    if (!entries || terms.length === 0) return [];
    const scored = [...entries.values()].map((entry) => {
      const words = new Set(searchTerms(`${entry.key} ${entry.text}`));
      return { entry, score: terms.filter((t) => words.has(t)).length };
    });
    return scored
      .filter((s) => s.score > 0)
      .sort((a, b) => b.score - a.score || b.entry.updatedAt - a.entry.updatedAt)
      .slice(0, limit)
      .map((s) => s.entry);
  }
}
