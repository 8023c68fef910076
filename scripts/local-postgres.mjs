// Starts a throwaway PostgreSQL server in a temp folder on a free loopback port, for the
// store's tests, its benchmark and the durable-runs example. Needs PostgreSQL's server
// binaries (Debian: the `postgresql` package, which `npm test` installs when initdb is missing).
import { execFileSync, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * The folder of initdb and pg_ctl: PG_BIN, then the newest /usr/lib/postgresql/<version>/bin,
 * then PATH; undefined when the server is not installed.
 */
export function postgresBinDir() {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).filter((v) => /^\d+$/.test(v)) : [];
  versions.sort((a, b) => Number(b) - Number(a));
  for (const v of versions) if (existsSync(join(root, v, "bin", "initdb"))) return join(root, v, "bin");
  const found = spawnSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" }).stdout.trim();
  return found ? join(found, "..") : undefined;
}

function binDir() {
  const dir = postgresBinDir();
  if (dir) return dir;
  throw new Error(
    "PostgreSQL's initdb was not found: install the server (Debian: apt-get install postgresql) or set PG_BIN to its bin folder.",
  );
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** initdb refuses to run as root: then the server runs as the `postgres` system user. */
function runAs() {
  if (process.getuid?.() !== 0) return {};
  const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
  const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
  return { uid, gid };
}

/**
 * Starts a server; returns its connection settings (for `pg`), `restart(mode)` (pg_ctl's
 * `fast` or `immediate`, the latter a crash of the server, not of the machine), and
 * `stop()`, which stops it and removes its folder. `durable: false` turns fsync off, for
 * tests that never crash the machine; commits then do not wait for the WAL either, unless
 * `synchronousCommit` (for tests that crash the server: a commit it answered survives it).
 */
export async function startLocalPostgres({ durable = true, synchronousCommit = durable } = {}) {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), "toolwright-pg-"));
  const user = runAs();
  if (user.uid !== undefined) chownSync(dir, user.uid, user.gid);
  const data = join(dir, "data");
  const run = (tool, args) =>
    execFileSync(join(bin, tool), args, { cwd: dir, stdio: ["ignore", "pipe", "pipe"], ...user });
  const port = await freePort();
  try {
    run("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync"]);
    const options = [`-p ${port}`, `-k ${dir}`, "-c listen_addresses=127.0.0.1", "-c max_connections=200"];
    if (!durable) options.push("-c fsync=off", "-c full_page_writes=off");
    if (!synchronousCommit) options.push("-c synchronous_commit=off");
    run("pg_ctl", ["-D", data, "-l", join(dir, "server.log"), "-o", options.join(" "), "-w", "-t", "60", "start"]);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`could not start PostgreSQL in ${dir}: ${error.stderr?.toString() || error.message}`);
  }
  let stopped = false;
  return {
    config: { host: "127.0.0.1", port, user: "postgres", database: "postgres" },
    connectionString: `postgres://postgres@127.0.0.1:${port}/postgres`,
    dir,
    restart(mode = "fast") {
      run("pg_ctl", ["-D", data, "-l", join(dir, "server.log"), "-m", mode, "-w", "-t", "60", "restart"]);
    },
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
