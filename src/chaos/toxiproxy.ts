// The Toxiproxy server chaos runs stand on: the pinned binary `rampart setup`
// puts in the per-user tools cache (src/tools/pinned.ts), started on a free loopback
// port for the run and stopped after it. Without that binary, where a Docker
// engine answers, the same pinned version comes as a container through
// testcontainers (an optional dependency; never required). RAMPART_TOXIPROXY
// forces one source: local or testcontainers.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { Toxiproxy } from 'toxiproxy-node-client';
import { findToxiproxyServer, pinnedVersion } from '../tools/pinned.js';

export { findToxiproxyServer };

export interface ToxiproxyHandle {
  api: Toxiproxy;
  /** http://127.0.0.1:<port> of the control API. */
  url: string;
  source: string;
  close(): Promise<void>;
}

export const pinnedToxiproxyVersion = (): string => pinnedVersion('toxiproxy');

/**
 * A port free now, for a listener that binds it later (a process not yet spawned, a receiver a tunnel already
 * forwards to). Chosen below the kernel's ephemeral range where it has one: a port 0 bind anywhere on the machine
 * (a reference target, a Toxiproxy proxy) is never given it in between, as a released ephemeral port may be.
 */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const below = ephemeralLow();
  for (let i = 0; below !== undefined && i < 20; i++) {
    const port = 10_000 + Math.floor(Math.random() * (below - 10_000));
    if (handedOut.has(port)) continue;
    if (await bindable(port, host)) {
      handedOut.add(port);
      return port;
    }
  }
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, host, () => {
      const addr = s.address();
      s.close(() => (addr && typeof addr === 'object' ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/** Ports this process has handed out: two worlds started together never get the same one. */
const handedOut = new Set<number>();

/** The low end of the kernel's ephemeral range (Linux), when there are at least 1000 ports below it to choose from. */
function ephemeralLow(): number | undefined {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 11_000 ? low : undefined;
  } catch {
    return undefined;
  }
}

function bindable(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, host, () => s.close(() => resolve(true)));
  });
}

/** Polls the control API until it answers; `gone` says why waiting is pointless (the process exited). */
async function waitReady(url: string, timeoutMs: number, gone: () => string | undefined = () => undefined): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let i = 0; Date.now() < deadline && i <= timeoutMs / 50; i++) {
    const why = gone();
    if (why) throw new Error(why);
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
    await waitReady(url, 10_000, () => (child.exitCode !== null ? `toxiproxy-server exited with code ${child.exitCode}` : undefined));
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

/** How the Toxiproxy server is chosen: RAMPART_TOXIPROXY=auto (default) | local | testcontainers. */
export type ToxiproxyMode = 'auto' | 'local' | 'testcontainers';

export function toxiproxyMode(value: string | undefined = process.env.RAMPART_TOXIPROXY): ToxiproxyMode {
  const v = (value ?? '').trim() || 'auto';
  if (v === 'auto' || v === 'local' || v === 'testcontainers') return v;
  throw new Error(`RAMPART_TOXIPROXY=${v} is not one of auto, local, testcontainers — unset it to choose automatically`);
}

export type ToxiproxyChoice = { kind: 'local'; path: string } | { kind: 'testcontainers' } | { missing: string };

/**
 * The pinned local binary when it is built (no image pull, no daemon);
 * otherwise a container where a Docker engine answers; otherwise why neither.
 * `docker` is asked only when needed (it probes the engine).
 */
export async function chooseToxiproxy(inputs: {
  mode: ToxiproxyMode;
  local: { path: string } | { missing: string };
  docker: () => Promise<true | string>;
}): Promise<ToxiproxyChoice> {
  const { mode, local } = inputs;
  if (mode !== 'testcontainers' && 'path' in local) return { kind: 'local', path: local.path };
  if (mode === 'local') return { missing: (local as { missing: string }).missing };
  const docker = await inputs.docker();
  if (docker === true) return { kind: 'testcontainers' };
  if (mode === 'testcontainers') return { missing: `RAMPART_TOXIPROXY=testcontainers but ${docker} — unset RAMPART_TOXIPROXY to use the local binary` };
  return { missing: `${(local as { missing: string }).missing}; and ${docker}, so no container either` };
}

type Testcontainers = typeof import('testcontainers');

async function loadTestcontainers(): Promise<Testcontainers | string> {
  try {
    // An optional dependency: a machine where it failed to install still runs the local binary.
    return await import('testcontainers');
  } catch {
    return 'the optional package testcontainers is not installed (npm i -D testcontainers@11)';
  }
}

/** true when testcontainers finds a Docker engine; otherwise the reason, in a few words. */
export async function dockerEngine(): Promise<true | string> {
  const tc = await loadTestcontainers();
  if (typeof tc === 'string') return tc;
  try {
    await tc.getContainerRuntimeClient();
    return true;
  } catch (e) {
    return `no Docker engine for testcontainers (${(e as Error).message.split('\n')[0]})`;
  }
}

/**
 * The pinned Toxiproxy image through testcontainers. Host networking (a Linux
 * Docker engine) so that, as with the local binary, the control API and every
 * proxy listen on this machine's loopback and upstreams on 127.0.0.1 resolve
 * to this machine: chaos traffic stays on 127.0.0.1 either way.
 */
async function startContainer(): Promise<ToxiproxyHandle | { missing: string }> {
  const tc = await loadTestcontainers();
  if (typeof tc === 'string') return { missing: tc };
  const version = pinnedToxiproxyVersion().slice(1);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let container: Awaited<ReturnType<InstanceType<Testcontainers['GenericContainer']>['start']>>;
  try {
    container = await new tc.GenericContainer(`ghcr.io/shopify/toxiproxy:${version}`)
      .withNetworkMode('host')
      .withCommand([`-host=127.0.0.1`, `-port=${port}`])
      .withStartupTimeout(120_000)
      .start();
  } catch (e) {
    return { missing: `the Toxiproxy container did not start (${(e as Error).message.split('\n')[0]})` };
  }
  try {
    await waitReady(url, 30_000);
  } catch (e) {
    await container.stop().catch(() => undefined);
    return { missing: `${(e as Error).message} — host networking needs a Linux Docker engine; use the local binary instead: npx rampart setup` };
  }
  return { api: new Toxiproxy(url), url, source: `testcontainers ghcr.io/shopify/toxiproxy:${version}`, close: async () => void (await container.stop()) };
}

/** Which Toxiproxy a chaos run would stand on, without starting it. */
export function resolveToxiproxy(mode: ToxiproxyMode = toxiproxyMode()): Promise<ToxiproxyChoice> {
  return chooseToxiproxy({ mode, local: findToxiproxyServer(), docker: dockerEngine });
}

export async function startToxiproxy(mode: ToxiproxyMode = toxiproxyMode()): Promise<ToxiproxyHandle | { missing: string }> {
  const choice = await resolveToxiproxy(mode);
  if ('missing' in choice) return choice;
  return choice.kind === 'local' ? startLocal(choice.path) : startContainer();
}
