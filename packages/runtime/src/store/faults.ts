import { StoreUnavailableError } from "./errors.js";

/**
 * SQLSTATE codes and classes of a database that is down, restarting, failing over or
 * overloaded, as opposed to a statement that is wrong: class 08 (connection exception),
 * 53 (insufficient resources), 57P01-57P03 (shutdown, crash, not yet accepting connections),
 * 25006 (a read-only standby, mid-failover), 40001/40P01 (serialization failure, deadlock),
 * 55P03 and 57014 (a lock or statement timeout).
 */
const POSTGRES_OUTAGES = /^(08|53|57P0[123]$|25006$|40001$|40P01$|55P03$|57014$)/;

/** Node's socket errors: the server is down, restarting, or out of reach. */
const SOCKET_ERRORS = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "EHOSTDOWN",
  "ENETUNREACH",
  "ENETDOWN",
  "EAI_AGAIN",
  "ENOTFOUND",
]);

/** The `pg` client's own errors for a connection that broke or never opened (they carry no SQLSTATE). */
const POSTGRES_CLIENT_OUTAGES = /connection|terminated|not queryable|timeout/i;

/** Whether a `pg` error is the database's fault (worth another try), not the statement's. */
export function isPostgresOutage(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code } = error as { code?: unknown };
  if (typeof code === "string" && SOCKET_ERRORS.has(code)) return true;
  if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return POSTGRES_OUTAGES.test(code);
  return code === undefined && POSTGRES_CLIENT_OUTAGES.test(error.message);
}

/** Whether a better-sqlite3 error is another connection's lock that outlasted the busy timeout. */
export function isSqliteBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === "string" && /^SQLITE_(BUSY|LOCKED)/.test(code);
}

/** `error` as a {@link StoreUnavailableError} when `isOutage` says it is one; otherwise as it was. */
export function outageOf(
  isOutage: (error: unknown) => boolean,
  operation: string,
  error: unknown,
  runId?: string,
): unknown {
  return isOutage(error) ? new StoreUnavailableError(operation, error, runId) : error;
}
