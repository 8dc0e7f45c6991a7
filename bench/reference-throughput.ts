// Requests per second of the embedded reference target (rate limits off) on a
// read route and on session creation, side by side with a bare node:http
// server answering a fixed JSON body. Target: ≥ 0.5 of bare on the read route.
// Run: npx tsx bench/reference-throughput.ts [seconds=3] [connections=32]
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { loadProfile } from '../src/profile/load.js';
import { startReference } from '../src/reference/server.js';

const seconds = Number(process.argv[2] ?? 3);
const connections = Number(process.argv[3] ?? 32);

interface Target {
  origin: string;
  path: string;
  method: 'GET' | 'POST';
  headers: () => Record<string, string>;
  body?: string;
  expect: number;
}

/** Drive `connections` request loops for `seconds`; answer req/s (only expected statuses count). */
async function measure(t: Target): Promise<{ rps: number; errors: number }> {
  const pool = new Pool(t.origin, { connections, pipelining: 1 });
  const deadline = Date.now() + seconds * 1000;
  let ok = 0;
  let errors = 0;
  const loop = async () => {
    // Bounded by the deadline and a hard request cap per loop.
    for (let i = 0; i < 10_000_000 && Date.now() < deadline; i++) {
      try {
        const r = await pool.request({ path: t.path, method: t.method, headers: t.headers(), body: t.body });
        await r.body.dump();
        if (r.statusCode === t.expect) ok++;
        else errors++;
      } catch {
        errors++;
      }
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: connections }, loop));
  const elapsed = (Date.now() - started) / 1000;
  await pool.close();
  return { rps: ok / elapsed, errors };
}

async function main(): Promise<void> {
  const base = loadProfile('fixtures/profiles/embedded.json');
  const profile = { ...base, reference: { ...base.reference!, rateLimits: false } };
  const ref = await startReference({ profile, ephemeralPorts: true });
  const fixed = JSON.stringify({ object: 'list', data: [{ object: 'asset', symbol: 'USDC', side: 'on_ramp', active: true }], has_more: false, url: '/v1/x' });
  const bare = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(fixed) });
    res.end(fixed);
  });
  await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
  try {
    const sandbox = new URL(ref.urls.gateSandbox);
    const origin = sandbox.origin;
    const partner = profile.gate.partners[0]!;
    const auth = { authorization: `Bearer ${partner.secretKey}` };
    // Read route: GET /capabilities/assets when that area answers, else GET /gate_sessions/{id}.
    let readPath = `${sandbox.pathname}/capabilities/assets`;
    const probe = await fetch(`${ref.urls.gateSandbox}/capabilities/assets`, { headers: auth });
    if (probe.status !== 200) {
      const created = await fetch(`${ref.urls.gateSandbox}/gate_sessions`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        body: JSON.stringify({ amount: '10.00', currency: 'EUR', return_url: 'https://shop.example.test/r' }),
      });
      readPath = `${sandbox.pathname}/gate_sessions/${((await created.json()) as { id: string }).id}`;
    }
    const bareResult = await measure({
      origin: `http://127.0.0.1:${(bare.address() as AddressInfo).port}`,
      path: '/',
      method: 'GET',
      headers: () => ({}),
      expect: 200,
    });
    const read = await measure({ origin, path: readPath, method: 'GET', headers: () => auth, expect: 200 });
    const write = await measure({
      origin,
      path: `${sandbox.pathname}/gate_sessions`,
      method: 'POST',
      headers: () => ({ ...auth, 'content-type': 'application/json', 'idempotency-key': randomUUID() }),
      body: JSON.stringify({ amount: '10.00', currency: 'EUR', return_url: 'https://shop.example.test/r' }),
      expect: 201,
    });
    const row = (name: string, r: { rps: number; errors: number }) =>
      `${name.padEnd(34)} ${r.rps.toFixed(0).padStart(8)} req/s  ${(r.rps / bareResult.rps).toFixed(2).padStart(5)}× bare  errors ${r.errors}`;
    console.log(`embedded reference throughput (${seconds}s each, ${connections} connections, rate limits off)`);
    console.log(row('bare node:http fixed JSON', bareResult));
    console.log(row(`GET ${readPath.replace(sandbox.pathname, '')}`.slice(0, 34), read));
    console.log(row('POST /gate_sessions', write));
    const ratio = read.rps / bareResult.rps;
    console.log(`read-route ratio ${ratio.toFixed(2)} (target ≥ 0.50): ${ratio >= 0.5 ? 'met' : 'NOT met'}`);
  } finally {
    bare.close();
    bare.closeAllConnections();
    await ref.close();
  }
}

await main();
