import { AgentConfigError, ToolError } from "../errors.js";
import type { MemoryEntry, MemoryStore } from "./memory-store.js";

/**
 * `ctx.memory`: what the agent remembers for this user or session, across runs. Text read
 * back from memory counts as untrusted content for the agent's trifecta policy (an earlier
 * run may have stored words someone else wrote).
 *
 * @example
 * ```ts
 * async function bookFlight(to: string, ctx: ToolContext) {
 *   const airline = await ctx.memory.recall("preferred_airline");
 *   await ctx.memory.remember("last_destination", to);
 * }
 * ```
 */
export interface Memory {
  /** Stores `text` under `key` (replacing it); throws a `ToolError`, storing nothing, when it is over the size cap. */
  remember(key: string, text: string): Promise<void>;
  /** The text under `key`, or undefined. */
  recall(key: string): Promise<string | undefined>;
  /** Deletes `key`; true when something was deleted. */
  forget(key: string): Promise<boolean>;
  /** The best matches for the words of `query` (default 5, at most 50); `[]` when nothing matches. */
  search(query: string, limit?: number): Promise<MemoryEntry[]>;
}

/** Memory options of an agent (`new Agent({ memory })`). */
export interface MemoryOptions {
  /** Where memory lives (default: a new {@link InMemoryStore} per agent, gone with the process). */
  readonly store?: MemoryStore;
  /**
   * Whose memory a run sees: `"session"` (the default: `run(input, { sessionId })`, else the
   * run's own id) or `"user"` (`run(input, { userId })`, which then must be given).
   */
  readonly scope?: "user" | "session";
  /** Longest text one entry may hold, in characters (default 4,000). */
  readonly maxChars?: number;
}

/** The size cap of one entry when the agent sets none. */
export const DEFAULT_MEMORY_CHARS = 4_000;
const MAX_KEY_CHARS = 200;
const MAX_RESULTS = 50;

/**
 * Binds a store to one scope, with the checks every caller gets: keys and texts must be
 * strings within their limits. `onRead` runs when text comes back, so the run can count it
 * as untrusted content.
 */
export function scopedMemory(store: MemoryStore, scope: string, maxChars: number, onRead: () => void): Memory {
  return {
    async remember(key, text) {
      checkKey(key);
      if (typeof text !== "string") throw new ToolError(`memory "${key}" not stored: its text must be a string.`);
      if (text.length > maxChars) {
        throw new ToolError(
          `memory "${key}" not stored: its text is ${text.length} characters and the limit is ${maxChars}. Store a shorter summary.`,
        );
      }
      await store.put(scope, key, text);
    },
    async recall(key) {
      checkKey(key);
      const entry = await store.get(scope, key);
      if (entry) onRead();
      return entry?.text;
    },
    async forget(key) {
      checkKey(key);
      return store.delete(scope, key);
    },
    async search(query, limit = 5) {
      if (typeof query !== "string") throw new ToolError("memory search needs a query string.");
      if (!(Number.isInteger(limit) && limit >= 1 && limit <= MAX_RESULTS)) {
        throw new ToolError(`memory search limit must be a whole number from 1 to ${MAX_RESULTS}, got ${limit}.`);
      }
      const found = await store.search(scope, query, limit);
      if (found.length) onRead();
      return found;
    },
  };
}

/** A memory that refuses every use, saying why: for contexts with no agent run behind them. */
export function unavailableMemory(reason: string): Memory {
  const refuse = async (): Promise<never> => {
    throw new ToolError(reason);
  };
  return { remember: refuse, recall: refuse, forget: refuse, search: refuse };
}

function checkKey(key: unknown): void {
  if (typeof key !== "string" || key.trim() === "" || key.length > MAX_KEY_CHARS) {
    throw new ToolError(
      `a memory key must be a non-empty string of at most ${MAX_KEY_CHARS} characters, got ${JSON.stringify(key)?.slice(0, 60)}.`,
    );
  }
}

/** {@link MemoryOptions} with defaults filled in: what a run reads. */
export interface ResolvedMemory {
  readonly store: MemoryStore;
  readonly scope: "user" | "session";
  readonly maxChars: number;
}

/** Checks an agent's memory options; `fallback` makes the default in-process store. */
export function resolveMemory(agentName: string, options: MemoryOptions, fallback: () => MemoryStore): ResolvedMemory {
  const scope = options.scope ?? "session";
  if (scope !== "user" && scope !== "session") {
    throw new AgentConfigError(
      `agent "${agentName}": memory.scope must be "user" or "session", got ${JSON.stringify(scope)}.`,
    );
  }
  const maxChars = options.maxChars ?? DEFAULT_MEMORY_CHARS;
  if (!(Number.isInteger(maxChars) && maxChars >= 1)) {
    throw new AgentConfigError(
      `agent "${agentName}": memory.maxChars must be a whole number of at least 1, got ${maxChars}.`,
    );
  }
  return { store: options.store ?? fallback(), scope, maxChars };
}

/**
 * The scope key of a run: `user:<id>` or `session:<id>`; undefined means the session of the
 * run itself (its id is only final once the run starts, e.g. a stored run's).
 */
export function memoryScope(
  agentName: string,
  memory: ResolvedMemory,
  ids: { readonly userId?: string | undefined; readonly sessionId?: string | undefined },
): string | undefined {
  if (memory.scope === "session") return ids.sessionId === undefined ? undefined : `session:${ids.sessionId}`;
  if (ids.userId === undefined || ids.userId === "") {
    throw new AgentConfigError(
      `agent "${agentName}" keeps memory per user (memory.scope "user"), but this run has no user: ` +
        "pass run(input, { userId }), or for a durable run startRun/submitRun(agent, input, { store, userId }).",
    );
  }
  return `user:${ids.userId}`;
}
