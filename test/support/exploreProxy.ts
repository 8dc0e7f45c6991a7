// Test support: a target that misbehaves on cue — an HTTP proxy in front of each sandbox base of a running embedded
// target, forwarding every request until the test changes its mode: hold every answer (a timeout), answer 429 with a
// long Retry-After (a rate-limit stop), or rewrite some answers (a divergence injected for as long as the test wants).
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Profile } from '../../src/profile/schema.js';

export type ProxyMode =
  | { kind: 'pass' }
  | { kind: 'hang' }
  | { kind: '429'; retryAfterSeconds: number }
  /** Rewrite the JSON body of answers to requests the test picks (method and path below the base). */
  | { kind: 'rewrite'; when: (method: string, path: string) => boolean; body: (json: any) => unknown }; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface MisbehavingTarget {
  profile: Profile;
  mode: ProxyMode;
  /** Requests forwarded or refused so far. */
  seen: number;
  /** Switch to a mode once this many requests were seen (for a child process the test cannot watch). */
  after?: { requests: number; mode: ProxyMode };
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((done, fail) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => done(Buffer.concat(parts)));
    req.on('error', fail);
  });
}

async function proxyTo(upstream: string, state: MisbehavingTarget): Promise<{ server: Server; url: string }> {
  const base = new URL(upstream);
  const held: IncomingMessage[] = [];
  const server = createServer(async (req, res) => {
    state.seen++;
    if (state.after && state.seen > state.after.requests) state.mode = state.after.mode;
    const mode = state.mode;
    const body = await readBody(req);
    if (mode.kind === 'hang') {
      held.push(req);
      return;
    }
    if (mode.kind === '429') {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(mode.retryAfterSeconds) });
      res.end(JSON.stringify({ type: 'rate_limited', code: 'rate_limited', message: 'slow down', request_id: 'r', doc_url: null, statusCode: 429 }));
      return;
    }
    const path = (req.url ?? '/').slice(base.pathname.replace(/\/$/, '').length);
    const up = httpRequest(
      { host: base.hostname, port: base.port, method: req.method, path: req.url, headers: { ...req.headers, host: base.host } },
      async (answer) => {
        const raw = await readBody(answer);
        const rewrite = mode.kind === 'rewrite' && mode.when(req.method ?? 'GET', path.split('?')[0] ?? '/');
        if (!rewrite) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.end(raw);
          return;
        }
        const text = JSON.stringify(mode.body(JSON.parse(raw.toString('utf8'))));
        const headers = { ...answer.headers, 'content-length': String(Buffer.byteLength(text)) };
        res.writeHead(answer.statusCode ?? 502, headers);
        res.end(text);
      },
    );
    up.on('error', () => res.destroy());
    up.end(body);
  });
  server.on('close', () => held.forEach((r) => r.destroy()));
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as AddressInfo).port;
  return { server, url: `http://127.0.0.1:${port}${base.pathname}` };
}

/** Proxies in front of the profile's sandbox bases; the profile returned points at them. */
export async function misbehaving(target: Profile): Promise<MisbehavingTarget> {
  const state = { mode: { kind: 'pass' }, seen: 0 } as MisbehavingTarget;
  const gate = await proxyTo(target.gate.baseUrls.sandbox, state);
  const pools = target.pools ? await proxyTo(target.pools.baseUrls.sandbox, state) : undefined;
  state.profile = {
    ...target,
    gate: { ...target.gate, baseUrls: { ...target.gate.baseUrls, sandbox: gate.url } },
    ...(target.pools && pools ? { pools: { ...target.pools, baseUrls: { ...target.pools.baseUrls, sandbox: pools.url } } } : {}),
  };
  state.close = async () => {
    for (const s of [gate.server, pools?.server]) {
      s?.closeAllConnections();
      await new Promise<void>((ok) => (s ? s.close(() => ok()) : ok()));
    }
  };
  return state;
}
