// The Toxiproxy server chaos runs stand on: the pinned binary built by
// scripts/setup.sh (tools/bin/toxiproxy-server), started on a free loopback
// port for the run and stopped after it. Where a Docker engine exists and
// RAMPART_TOXIPROXY=testcontainers is set, @testcontainers/toxiproxy may
// provide it instead (an optional package; never required).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Toxiproxy } from 'toxiproxy-node-client';
import { ROOT } from '../load/k6.js';

export interface ToxiproxyHandle {
  api: Toxiproxy;
  /** http://127.0.0.1:<port> of the control API. */
  url: string;
  source: string;
  close(): Promise<void>;
}

export function pinnedToxiproxyVersion(): string {
  const mod = readFileSync(join(ROOT, 'tools', 'go.mod'), 'utf8');
  const m = /github\.com\/Shopify\/toxiproxy\/v2\s+(v[\d.]+)/.exec(mod);
  if (!m) throw new Error('tools/go.mod does not pin github.com/Shopify/toxiproxy/v2');
  return m[1]!;
}

/** The toxiproxy-server binary of the pinned version, or why there is none. */
export function findToxiproxyServer(): { path: string } | { missing: string } {
  const version = pinnedToxiproxyVersion();
  const local = join(ROOT, 'tools', 'bin', 'toxiproxy-server');
  const stamp = join(ROOT, 'tools', 'bin', '.toxiproxy-server.version');
  if (existsSync(local) && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === version) return { path: local };
  if (process.env.RAMPART_TOXIPROXY_SERVER && existsSync(process.env.RAMPART_TOXIPROXY_SERVER)) return { path: process.env.RAMPART_TOXIPROXY_SERVER };
  return { missing: `toxiproxy-server ${version} not found — run \`npm run setup\` (builds it into tools/bin)` };
}

export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, host, () => {
      const addr = s.address();
      s.close(() => (addr && typeof addr === 'object' ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

async function waitReady(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let i = 0; Date.now() < deadline && i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`toxiproxy-server exited with code ${child.exitCode}`);
    try {
      const r = await fetch(`${url}/version`);
      if (r.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`toxiproxy-server did not answer on ${url} within ${timeoutMs} ms`);
}

async function startLocal(path: string): Promise<ToxiproxyHandle> {
  const port = await freePort();
  const child = spawn(path, ['-host', '127.0.0.1', '-port', String(port)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-2000)));
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitReady(url, child, 10_000);
  } catch (e) {
    child.kill('SIGKILL');
    throw new Error(`${(e as Error).message}${stderr ? ` (${stderr.trim().split('\n').pop()})` : ''}`);
  }
  return {
    api: new Toxiproxy(url),
    url,
    source: `local binary ${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 2_000).unref();
      }),
  };
}

/** A Docker-backed Toxiproxy through @testcontainers/toxiproxy, when asked for and available. */
async function startContainer(): Promise<ToxiproxyHandle | { missing: string }> {
  let mod: { ToxiProxyContainer: new (image: string) => { start(): Promise<{ getHost(): string; getMappedPort(p: number): number; stop(): Promise<unknown> }> } };
  try {
    // Optional: not a dependency of rampart; installed by users who want it.
    mod = (await import(/* @vite-ignore */ '@testcontainers/toxiproxy' as string)) as typeof mod;
  } catch {
    return { missing: 'RAMPART_TOXIPROXY=testcontainers but @testcontainers/toxiproxy is not installed (npm i -D @testcontainers/toxiproxy@11)' };
  }
  try {
    const c = await new mod.ToxiProxyContainer(`ghcr.io/shopify/toxiproxy:${pinnedToxiproxyVersion().slice(1)}`).start();
    const url = `http://${c.getHost()}:${c.getMappedPort(8474)}`;
    return { api: new Toxiproxy(url), url, source: 'testcontainers', close: async () => void (await c.stop()) };
  } catch (e) {
    return { missing: `no Docker engine for testcontainers (${(e as Error).message.split('\n')[0]}) — unset RAMPART_TOXIPROXY to use the local binary` };
  }
}

export async function startToxiproxy(): Promise<ToxiproxyHandle | { missing: string }> {
  if (process.env.RAMPART_TOXIPROXY === 'testcontainers') return startContainer();
  const bin = findToxiproxyServer();
  if ('missing' in bin) return bin;
  return startLocal(bin.path);
}
