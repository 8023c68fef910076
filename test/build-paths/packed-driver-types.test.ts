import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PackedProject } from "./packed-project.js";

// A user who never installs a database driver pays no types for one: a project with
// `"skipLibCheck": false` that imports every entry point of the packed runtime type-checks
// with neither pg, better-sqlite3 nor their @types installed. The store and memory openers'
// options are toolwright's own types (what a pg Pool or an open better-sqlite3 database
// must look like), not the drivers'. The MCP SDK and the OpenTelemetry API are installed:
// toolwright/mcp and toolwright/telemetry are built on their types.

const project = new PackedProject();

const MAIN = `import * as root from "toolwright";
import * as dialects from "toolwright/dialects";
import * as mcp from "toolwright/mcp";
import * as memory from "toolwright/memory";
import * as providers from "toolwright/providers";
import * as store from "toolwright/store";
import * as telemetry from "toolwright/telemetry";
import * as testing from "toolwright/testing";
import * as trace from "toolwright/trace";

export const entries = [root, dialects, mcp, memory, providers, store, telemetry, testing, trace];

// The options of every opener, written out: each type must resolve without a driver's types.
export const sqliteStore: store.SqliteStoreOptions = { path: "runs.db" };
export const postgresStore: store.PostgresStoreOptions = { connectionString: "postgres://localhost/app", max: 4 };
export const sqliteMemory: memory.SqliteMemoryOptions = { path: "memory.db" };
export const postgresMemory: memory.PostgresMemoryOptions = { connectionString: "postgres://localhost/app" };
export const openers = [store.openSqliteStore, store.openPostgresStore, memory.openSqliteMemory, memory.openPostgresMemory];
`;

const TSCONFIG = JSON.stringify({
  compilerOptions: { target: "es2022", module: "nodenext", strict: true, skipLibCheck: false, noEmit: true },
  include: ["src"],
});

beforeAll(async () => {
  const { runtime } = await project.pack();
  project.write(
    "package.json",
    JSON.stringify({
      name: "outside-no-drivers",
      private: true,
      type: "module",
      dependencies: { toolwright: runtime, "@modelcontextprotocol/sdk": "^1.24.0", "@opentelemetry/api": "^1.3.0" },
      devDependencies: { typescript: "5.9.3", "@types/node": "^20.19.0" },
    }),
  );
  project.write("src/main.ts", MAIN);
  project.write("tsconfig.json", TSCONFIG);
  await project.install();
}, 600_000);

afterAll(() => project.remove());

describe("the packed runtime's types without any database driver", () => {
  it("installs no driver and no driver's types", async () => {
    const { stdout } = await project.run("npm", ["ls", "--all", "--parseable"]);
    expect(
      stdout.split("\n").filter((line) => /[\\/](pg|better-sqlite3|@types[\\/](pg|better-sqlite3))$/.test(line)),
    ).toEqual([]);
  });

  it('every entry point type-checks with "skipLibCheck": false', async () => {
    const checked = project.run(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.json"]);
    await expect(checked).resolves.toMatchObject({ stdout: "" });
  }, 300_000);
});
