/**
 * An open better-sqlite3 database (`new Database(file)`), as far as toolwright's types need
 * to know one: written here so that they need neither better-sqlite3 nor its @types.
 */
export interface SqliteDatabase {
  readonly name: string;
  readonly open: boolean;
  prepare(source: string): unknown;
  exec(source: string): unknown;
  close(): unknown;
}
