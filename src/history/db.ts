// The run store's two databases behind one small interface: SQL in the subset SQLite and PostgreSQL share (TEXT,
// INTEGER, DOUBLE PRECISION; `?` placeholders, numbered for PostgreSQL), reads and writes each in a transaction of
// their own. The store (store.ts) and its migrations (migrations.ts) speak only this.

export type Dialect = 'sqlite' | 'postgres';

export type SqlValue = string | number | null;

export interface Db {
  readonly dialect: Dialect;
  all<T = Record<string, SqlValue>>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  run(sql: string, params?: readonly SqlValue[]): Promise<void>;
}

/** One database: where it is (said without a password), and transactions on it. */
export interface DbHandle {
  readonly dialect: Dialect;
  /** What the terminal and the report say of it: a file path, or a postgres URL with its password masked. */
  readonly where: string;
  read<T>(fn: (db: Db) => Promise<T>): Promise<T>;
  write<T>(fn: (db: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** `?` placeholders as PostgreSQL numbers them ($1, $2 …). The store's SQL holds no `?` inside a literal. */
export function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/** Rows inserted a hundred at a time: one statement per chunk instead of one per row (a run has hundreds). */
export async function insertRows(db: Db, table: string, columns: readonly string[], rows: readonly SqlValue[][], onConflict = ''): Promise<void> {
  const CHUNK = 100;
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    const tuple = `(${columns.map(() => '?').join(', ')})`;
    await db.run(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${chunk.map(() => tuple).join(', ')}${onConflict ? ` ${onConflict}` : ''}`, chunk.flat());
  }
}

/** A postgres URL as it may be shown: its password masked. */
export function maskedUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
  }
}
