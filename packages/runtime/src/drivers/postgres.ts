// What toolwright's types say of pg, written here so that they need neither pg nor @types/pg:
// a user who never installs the driver pays no types for it (`"skipLibCheck": false` included).
import type { ConnectionOptions } from "node:tls";

/**
 * The options of a pg `Pool` (pg's `PoolConfig`), passed to it as given: the usual ones are
 * typed here, and any other of pg's options is accepted too.
 */
export interface PostgresPoolOptions {
  /** e.g. `"postgres://user:secret@db.internal:5432/app"`; the fields below override its parts. */
  readonly connectionString?: string | undefined;
  readonly host?: string | undefined;
  readonly port?: number | undefined;
  readonly user?: string | undefined;
  readonly password?: string | (() => string | Promise<string>) | undefined;
  readonly database?: string | undefined;
  readonly ssl?: boolean | ConnectionOptions | undefined;
  readonly application_name?: string | undefined;
  /** Connections the pool opens at most (pg's default: 10). */
  readonly max?: number | undefined;
  readonly idleTimeoutMillis?: number | null | undefined;
  readonly connectionTimeoutMillis?: number | undefined;
  readonly statement_timeout?: false | number | undefined;
  // `any`, not `unknown`: a value typed with pg's own `PoolConfig` (an interface, which has
  // no index signature) stays assignable.
  // biome-ignore lint/suspicious/noExplicitAny: any other option of pg's PoolConfig, as pg types it
  readonly [option: string]: any;
}

/** An open pg `Pool` (`new pg.Pool(...)`), as far as toolwright's types need to know one. */
export interface PostgresPool {
  connect(): Promise<unknown>;
  end(): Promise<void>;
}
