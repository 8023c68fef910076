import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { openSqliteStore, SchemaVersionError, StoredRunError } from "../../src/store/index.js";
import { runStoreConformance, sha256 } from "./conformance.js";

const dir = mkdtempSync(join(tmpdir(), "toolwright-sqlite-"));
const file = join(dir, "runs.db");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function raw<T>(run: (db: Database.Database) => T): T {
  const db = new Database(file);
  try {
    return run(db);
  } finally {
    db.close();
  }
}

describe("SqliteStore", () => {
  runStoreConformance({
    open: () => openSqliteStore({ path: file }),
    async getState(runId) {
      return raw((db) => db.prepare("SELECT state FROM toolwright_runs WHERE run_id = ?").pluck().get(runId) as string);
    },
    async setState(runId, text, digest = sha256(text)) {
      raw((db) =>
        db.prepare("UPDATE toolwright_runs SET state = ?, state_digest = ? WHERE run_id = ?").run(text, digest, runId),
      );
    },
    async setInput(runId, text) {
      raw((db) => db.prepare("UPDATE toolwright_runs SET input = ? WHERE run_id = ?").run(text, runId));
    },
    async setStatus(runId, status) {
      raw((db) => db.prepare("UPDATE toolwright_runs SET status = ? WHERE run_id = ?").run(status, runId));
    },
  });

  it("works in memory", async () => {
    const store = await openSqliteStore({ path: ":memory:" });
    expect(await store.list()).toEqual([]);
    await store.close();
  });

  it("refuses a database migrated by a newer toolwright", async () => {
    const other = join(dir, "newer.db");
    await (await openSqliteStore({ path: other })).close();
    const db = new Database(other);
    db.prepare("INSERT INTO toolwright_migrations (version, applied_at) VALUES (99, 0)").run();
    db.close();
    await expect(openSqliteStore({ path: other })).rejects.toThrow(SchemaVersionError);
  });

  it("refuses a row with an unknown status", async () => {
    const store = await openSqliteStore({ path: file });
    raw((db) =>
      db
        .prepare(
          "INSERT INTO toolwright_runs (run_id, agent, status, input, created_at, updated_at) VALUES ('r-odd', 'refunds', 'dancing', '[]', 0, 0)",
        )
        .run(),
    );
    await expect(store.get("r-odd")).rejects.toThrow(StoredRunError);
    await store.close();
  });
});
