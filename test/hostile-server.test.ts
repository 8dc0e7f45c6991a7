// The hostile server's modes that later matrix cases build on: forwarding to a
// real target, then hanging (a mid-run outage), or a blip it recovers from.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../src/client/http.js';
import type { RunningReference } from '../src/reference/server.js';
import { startEmbedded } from './support/embedded.js';
import { startHostile, type HostileServer } from './support/hostileServer.js';

let ref: RunningReference;
const servers: HostileServer[] = [];
beforeAll(async () => {
  ref = await startEmbedded();
});
afterAll(async () => {
  for (const s of servers) await s.close();
  await ref.close();
});

/** The gate sandbox of the embedded target, reached through a hostile server. */
async function throughHostile(opts: Parameters<typeof startHostile>[0]) {
  const gate = new URL(ref.urls.gateSandbox);
  const server = await startHostile({ ...opts, upstream: gate.origin });
  servers.push(server);
  const client = createApiClient({
    service: 'gate',
    baseUrl: `${server.origin}${gate.pathname}`,
    label: 't',
    secretKey: ref.profile.gate.partners[0]!.secretKey,
    timeoutMs: 500,
  });
  return { server, client };
}

describe('hostile server with an upstream', () => {
  it('healthy-then-hang forwards the first N requests to the real target, then never answers', async () => {
    const { server, client } = await throughHostile({ mode: 'healthy-then-hang', healthyRequests: 2 });
    const a = await client.get('/capabilities/assets');
    const b = await client.post('/quotes/preview', { amount: '50.00', currency: 'EUR', asset: 'USDC' }, { retry: false });
    expect(a.status).toBe(200);
    expect(a.json).toMatchObject({ object: 'list' });
    // Forwarded as sent, body included: the target answered it (whatever its verdict on the body).
    expect(b.status).toBeGreaterThanOrEqual(200);
    expect(b.json).toBeDefined();
    const err = await client.get('/capabilities/assets', undefined, { retry: false }).catch((e) => e);
    expect(err.kind).toBe('timeout');
    expect(server.seen).toHaveLength(3);
  });

  it('blip resets requests N+1 … N+M, then answers again', async () => {
    const { client } = await throughHostile({ mode: 'blip', healthyRequests: 1, blipRequests: 2 });
    const outcomes: (number | string)[] = [];
    for (let i = 0; i < 4; i++)
      outcomes.push(
        await client.get('/capabilities/assets', undefined, { retry: false }).then(
          (ex) => ex.status,
          (e) => e.kind,
        ),
      );
    expect(outcomes).toEqual([200, 'reset', 'reset', 200]);
  });
});
