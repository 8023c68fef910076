import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain ESM script shared with the benchmark and the example, without types.
import { startLocalPostgres } from "../../../../scripts/local-postgres.mjs";
import { openPostgresStore, SchemaVersionError } from "../../src/store/index.js";
import { runStoreConformance, sha256 } from "./conformance.js";

interface LocalPostgres {
  readonly config: pg.ClientConfig;
  stop(): void;
}

let server: LocalPostgres;
beforeAll(async () => {
  server = await startLocalPostgres({ durable: false });
});
afterAll(() => server?.stop());

async function sql<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client(server.config);
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

describe("PostgresStore", () => {
  runStoreConformance({
    open: () => openPostgresStore(server.config),
    async getState(runId) {
      const [row] = await sql<{ state: string }>("SELECT state FROM toolwright_runs WHERE run_id = $1", [runId]);
      return row?.state as string;
    },
    async setState(runId, text, digest = sha256(text)) {
      await sql("UPDATE toolwright_runs SET state = $1, state_digest = $3 WHERE run_id = $2", [text, runId, digest]);
    },
    async setInput(runId, text) {
      await sql("UPDATE toolwright_runs SET input = $1 WHERE run_id = $2", [text, runId]);
    },
    async setStatus(runId, status) {
      await sql("UPDATE toolwright_runs SET status = $1 WHERE run_id = $2", [status, runId]);
    },
  });

  it("migrates once when several processes open the store at the same time", async () => {
    const stores = await Promise.all(Array.from({ length: 4 }, () => openPostgresStore(server.config)));
    await Promise.all(stores.map((s) => s.close()));
    expect(await sql("SELECT version FROM toolwright_migrations ORDER BY version")).toEqual([
      { version: 1 },
      { version: 2 },
      { version: 3 },
    ]);
  });

  it("refuses a database migrated by a newer toolwright", async () => {
    await sql("INSERT INTO toolwright_migrations (version, applied_at) VALUES (99, 0)");
    try {
      await expect(openPostgresStore(server.config)).rejects.toThrow(SchemaVersionError);
    } finally {
      await sql("DELETE FROM toolwright_migrations WHERE version = 99");
    }
  });
});
