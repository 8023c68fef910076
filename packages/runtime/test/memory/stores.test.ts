import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain ESM script shared with the store's tests, without types.
import { startLocalPostgres } from "../../../../scripts/local-postgres.mjs";
import { InMemoryStore, openPostgresMemory, openSqliteMemory } from "../../src/memory/index.js";
import { openSqliteStore } from "../../src/store/index.js";
import { runMemoryConformance } from "./conformance.js";

describe("InMemoryStore", () => {
  runMemoryConformance(async () => new InMemoryStore());
});

describe("SQLite memory (FTS5)", () => {
  let dir: string;
  let n = 0;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "toolwright-memory-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  runMemoryConformance(() => openSqliteMemory({ path: path.join(dir, `memory-${++n}.db`) }));

  it("shares a file with the run store, each in its own tables", async () => {
    const file = path.join(dir, "app.db");
    const runs = await openSqliteStore({ path: file });
    const memory = await openSqliteMemory({ path: file });
    try {
      await memory.put("user:1", "city", "Lives in Lyon.");
      await runs.create({
        runId: "run_1",
        agent: "a",
        tools: [],
        input: [{ role: "user", content: "hi" }],
        leaseMs: 1_000,
      });
      expect((await memory.search("user:1", "lyon", 5)).map((e) => e.key)).toEqual(["city"]);
      expect((await runs.get("run_1"))?.runId).toBe("run_1");
    } finally {
      await memory.close();
      await runs.close();
    }
  });

  it("takes an open better-sqlite3 database, and leaves it open", async () => {
    const db = new Database(path.join(dir, "open.db"));
    try {
      const memory = await openSqliteMemory({ path: db });
      await memory.put("user:1", "city", "Lives in Lyon.");
      await memory.close();
      expect(db.open).toBe(true);
      expect(db.prepare("SELECT text FROM toolwright_memory").get()).toEqual({ text: "Lives in Lyon." });
    } finally {
      db.close();
    }
  });
});

describe("PostgreSQL memory (full-text search)", () => {
  let server: { config: pg.ClientConfig; stop(): void };
  let n = 0;
  beforeAll(async () => {
    server = await startLocalPostgres({ durable: false });
  });
  afterAll(() => server?.stop());
  /** A database of its own, so the scopes of one test never meet another's. */
  async function freshDatabase(): Promise<pg.ClientConfig> {
    const database = `memory_${++n}`;
    const admin = new pg.Client(server.config);
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${database}`);
    } finally {
      await admin.end();
    }
    return { ...server.config, database };
  }
  runMemoryConformance(async () => openPostgresMemory(await freshDatabase()));

  it("takes an open pg pool, and leaves it open", async () => {
    const pool = new pg.Pool(await freshDatabase());
    try {
      const memory = await openPostgresMemory({ pool });
      await memory.put("user:1", "city", "Lives in Lyon.");
      await memory.close();
      expect((await pool.query("SELECT text FROM toolwright_memory")).rows).toEqual([{ text: "Lives in Lyon." }]);
    } finally {
      await pool.end();
    }
  });

  it("reads entries written before U+0000 was escaped as they were written, U+FFFF included", async () => {
    const config = await freshDatabase();
    const old = new pg.Client(config);
    await old.connect();
    try {
      // The table as earlier versions made it, holding a U+FFFF as it is.
      await old.query(`CREATE TABLE toolwright_memory (
        scope TEXT NOT NULL, key TEXT NOT NULL, text TEXT NOT NULL, updated_at BIGINT NOT NULL,
        search tsvector GENERATED ALWAYS AS (to_tsvector('simple', key || ' ' || text)) STORED,
        PRIMARY KEY (scope, key))`);
      await old.query("INSERT INTO toolwright_memory VALUES ($1, $2, $3, 1), ($1, 'plain', 'Lives in Lyon.', 2)", [
        "user:\uFFFF",
        "odd\uFFFF\uFFFE",
        "kept \uFFFF\uFFFE as written",
      ]);
    } finally {
      await old.end();
    }
    for (let opening = 1; opening <= 2; opening++) {
      const memory = await openPostgresMemory(config);
      try {
        expect((await memory.get("user:\uFFFF", "odd\uFFFF\uFFFE"))?.text).toBe("kept \uFFFF\uFFFE as written");
        expect((await memory.get("user:\uFFFF", "odd\u0000"))?.text).toBeUndefined();
        expect((await memory.search("user:\uFFFF", "lyon", 5)).map((e) => e.key)).toEqual(["plain"]);
      } finally {
        await memory.close();
      }
    }
  });
});
