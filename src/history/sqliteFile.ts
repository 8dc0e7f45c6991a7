// The embedded store: one SQLite file beside the reports (reports/history.db), through sql.js — SQLite compiled to
// WebAssembly, so `npm ci` builds and downloads nothing (better-sqlite3 12 builds from source and tries a prebuilt
// download first). sql.js keeps the database in memory: a write loads the file, changes it in one transaction,
// and puts it back whole — a temporary file renamed over the old one, so a reader sees the old file or the new,
// never half of one — under a lock file, so two runs finishing at once both land (the second loads what the
// first wrote). A read loads the file and needs no lock.
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, writeSync, fsyncSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import initSqlJs, { type Database, type SqlJsStatic } from 'sql.js';
import type { Db, DbHandle, SqlValue } from './db.js';

let engine: Promise<SqlJsStatic> | undefined;
const sqlJs = () => (engine ??= initSqlJs());

/** How long a write waits for another run's lock before it gives up, and when a lock is old enough to be stale. */
const LOCK_WAIT_MS = 30_000;
const LOCK_STALE_MS = 120_000;

class SqliteDb implements Db {
  readonly dialect = 'sqlite' as const;
  constructor(private readonly db: Database) {}
  async all<T>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    const stmt = this.db.prepare(sql);
    try {
      stmt.bind([...params]);
      const rows: T[] = [];
      while (stmt.step()) rows.push(stmt.getAsObject() as T);
      return rows;
    } finally {
      stmt.free();
    }
  }
  async run(sql: string, params: readonly SqlValue[] = []): Promise<void> {
    this.db.run(sql, [...params]);
  }
}

interface LockOwner {
  pid: number;
  host: string;
  at: number;
}

/** Whether the lock's owner is gone: a process of this host that no longer runs, or a lock older than any write takes. */
function stale(owner: LockOwner | undefined, mtimeMs: number): boolean {
  if (Date.now() - (owner?.at ?? mtimeMs) > LOCK_STALE_MS) return true;
  if (!owner || owner.host !== hostname()) return false;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

async function lock(path: string): Promise<() => void> {
  const lockPath = `${path}.lock`;
  const until = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname(), at: Date.now() } satisfies LockOwner));
      closeSync(fd);
      return () => rmSync(lockPath, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    let owner: LockOwner | undefined;
    let mtimeMs = Date.now();
    try {
      mtimeMs = statSync(lockPath).mtimeMs;
      owner = JSON.parse(readFileSync(lockPath, 'utf8')) as LockOwner;
    } catch {
      // Half written, or just removed: look again.
    }
    if (stale(owner, mtimeMs)) {
      rmSync(lockPath, { force: true });
      continue;
    }
    if (Date.now() > until)
      throw new Error(
        `the history store ${path} is locked by process ${owner?.pid ?? '?'} on ${owner?.host ?? '?'} (${lockPath}); remove the lock file if no rampart runs`,
      );
    await new Promise((r) => setTimeout(r, 50));
  }
}

function load(SQL: SqlJsStatic, path: string): Database {
  return existsSync(path) ? new SQL.Database(readFileSync(path)) : new SQL.Database();
}

/** The whole database put back: a temporary file beside it, flushed, renamed over it. */
function save(db: Database, path: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    writeFileSync(fd, db.export());
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}

export function sqliteFile(path: string): DbHandle {
  return {
    dialect: 'sqlite',
    where: path,
    async read(fn) {
      const db = load(await sqlJs(), path);
      try {
        return await fn(new SqliteDb(db));
      } finally {
        db.close();
      }
    },
    async write(fn) {
      const SQL = await sqlJs();
      mkdirSync(dirname(path), { recursive: true });
      const unlock = await lock(path);
      try {
        const db = load(SQL, path);
        try {
          db.run('BEGIN');
          const out = await fn(new SqliteDb(db));
          db.run('COMMIT');
          save(db, path);
          return out;
        } finally {
          db.close();
        }
      } finally {
        unlock();
      }
    },
    async close() {},
  };
}
