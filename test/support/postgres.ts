// Test support: a real PostgreSQL for the run store's tests — Debian's server, installed and started by
// scripts/postgres-for-tests.sh where this machine allows it — and a database of its own for each caller, dropped
// after. Where no server can be had, `skip` says why and the tests skip visibly with it. Never a mock.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';

const SCRIPT = join(import.meta.dirname, '..', '..', 'scripts', 'postgres-for-tests.sh');

let server: { url?: string; skip?: string } | undefined;

/** The server (its postgres database), started once per process; or why there is none. */
export function postgresServer(): { url?: string; skip?: string } {
  if (server) return server;
  try {
    const out = execFileSync('bash', [SCRIPT], { encoding: 'utf8', timeout: 900_000, stdio: ['ignore', 'pipe', 'inherit'] });
    const line = out.trim().split('\n').pop() ?? '';
    server = line.startsWith('url=') ? { url: line.slice(4) } : { skip: line.replace(/^skip=/, '') || 'scripts/postgres-for-tests.sh said nothing' };
  } catch (e) {
    server = { skip: `scripts/postgres-for-tests.sh failed: ${(e as Error).message.split('\n')[0]}` };
  }
  return server;
}

/** A fresh database on the server: its URL, and how to drop it. */
export async function freshDatabase(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `rampart_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
