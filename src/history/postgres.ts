// A store many CI runners share: PostgreSQL through `pg` (pure JavaScript), one connection per rampart process, each
// read and write a transaction of its own. The schema and its migrations are the SQLite file's (migrations.ts).
import pg from 'pg';
import type { Db, DbHandle, SqlValue } from './db.js';
import { maskedUrl, numbered } from './db.js';

class PostgresDb implements Db {
  readonly dialect = 'postgres' as const;
  constructor(private readonly client: pg.Client) {}
  async all<T>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    const res = await this.client.query(numbered(sql), [...params]);
    return res.rows as T[];
  }
  async run(sql: string, params: readonly SqlValue[] = []): Promise<void> {
    await this.client.query(numbered(sql), [...params]);
  }
}

/** Connects at once, so a wrong URL or a server down is said at the start of a run, never after it. */
export async function postgresStore(url: string): Promise<DbHandle> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  // An error on an idle connection (the server restarted) must not end the process: the next query says it.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (e) {
    await client.end().catch(() => undefined);
    throw new Error(`cannot connect to the history store ${maskedUrl(url)}: ${(e as Error).message}`);
  }
  const db = new PostgresDb(client);
  // One transaction at a time on the one connection.
  let queue: Promise<unknown> = Promise.resolve();
  const inTransaction = <T>(fn: (db: Db) => Promise<T>): Promise<T> => {
    const next = queue.then(async () => {
      await client.query('BEGIN');
      try {
        const out = await fn(db);
        await client.query('COMMIT');
        return out;
      } catch (e) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw e;
      }
    });
    queue = next.catch(() => undefined);
    return next;
  };
  return {
    dialect: 'postgres',
    where: maskedUrl(url),
    read: inTransaction,
    write: inTransaction,
    async close() {
      await queue;
      await client.end().catch(() => undefined);
    },
  };
}
