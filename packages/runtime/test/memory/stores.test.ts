import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
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
      await runs.create({ runId: "run_1", agent: "a", input: [{ role: "user", content: "hi" }], leaseMs: 1_000 });
      expect((await memory.search("user:1", "lyon", 5)).map((e) => e.key)).toEqual(["city"]);
      expect((await runs.get("run_1"))?.runId).toBe("run_1");
    } finally {
      await memory.close();
      await runs.close();
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
  // Each test gets a database of its own, so the scopes of one test never meet another's.
  runMemoryConformance(async () => {
    const database = `memory_${++n}`;
    const admin = new pg.Client(server.config);
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${database}`);
    } finally {
      await admin.end();
    }
    return openPostgresMemory({ ...server.config, database });
  });
});
