// Bounded reads: a body beyond the size limit or still arriving after the time
// limit fails its request with one line, and memory stays flat.
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../src/client/http.js';
import { DEFAULT_MAX_BODY_BYTES } from '../src/client/limits.js';
import { TransportError } from '../src/client/types.js';
import { startHostile, type HostileServer } from './support/hostileServer.js';

const root = resolve(import.meta.dirname, '..');
const servers: HostileServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});
async function hostile(opts: Parameters<typeof startHostile>[0]): Promise<HostileServer> {
  const s = await startHostile(opts);
  servers.push(s);
  return s;
}

interface ChildOutcome {
  kind?: string;
  message?: string;
  status?: number;
  rssBefore: number;
  peakRss: number;
  growth: number;
  ms: number;
}

/** The client in its own process, so its memory is measured apart from the server's and vitest's. */
function inChild(url: string, maxBodyBytes?: number): Promise<ChildOutcome> {
  return new Promise((done, fail) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', resolve(root, 'test/support/bodyLimitChild.ts'), url, ...(maxBodyBytes ? [String(maxBodyBytes)] : [])],
      { cwd: root, timeout: 60_000 },
      (err, stdout, stderr) => (err ? fail(new Error(`${err.message}\n${stderr}`)) : done(JSON.parse(stdout.trim().split('\n').pop()!) as ChildOutcome)),
    );
  });
}

const MB = 1024 * 1024;

describe('bounded reads', () => {
  it('a 50 MB body (chunked): TransportError too-large with one line, RSS growth under 100 MB', async () => {
    const s = await hostile({ mode: 'huge-body', hugeBytes: 50 * 1000 * 1000 });
    const out = await inChild(`${s.origin}/v1/capabilities/assets`);
    expect(out.kind).toBe('too-large');
    expect(out.message).toContain(`body larger than ${DEFAULT_MAX_BODY_BYTES} bytes (8 MiB)`);
    expect(out.message!.split('\n')).toHaveLength(1);
    expect(out.growth).toBeLessThan(100 * MB);
    console.log(
      `50 MB body: rss before ${(out.rssBefore / MB).toFixed(0)} MB, peak ${(out.peakRss / MB).toFixed(0)} MB, growth ${(out.growth / MB).toFixed(1)} MB, ${out.ms} ms`,
    );
  }, 90_000);

  it('a declared Content-Length beyond the limit is refused before reading', async () => {
    const s = await hostile({ mode: 'huge-body', hugeBytes: 50 * 1000 * 1000, declareLength: true });
    const client = createApiClient({ service: 'gate', baseUrl: `${s.origin}/v1`, label: 't', maxBodyBytes: 1 * MB });
    const t0 = Date.now();
    const err = await client.get('/capabilities/assets', undefined, { retry: false }).catch((e) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect(err.kind).toBe('too-large');
    expect(err.message).toContain('body larger than 1048576 bytes (1 MiB)');
    expect(Date.now() - t0).toBeLessThan(5_000);
  });

  it('the limit is per request too (ApiRequest.maxBodyBytes)', async () => {
    const s = await hostile({ mode: 'huge-body', hugeBytes: 20_000 });
    const client = createApiClient({ service: 'gate', baseUrl: `${s.origin}/v1`, label: 't' });
    const err = await client.get('/capabilities/assets', undefined, { retry: false, maxBodyBytes: 10_000 }).catch((e) => e);
    expect(err.kind).toBe('too-large');
    expect(err.message).toContain('body larger than 10000 bytes');
    const ok = await client.get('/capabilities/assets', undefined, { retry: false });
    expect(ok.bodyText.length).toBe(20_000);
  });

  it('a 1-byte/s drip: TransportError body-timeout within the limit, one line', async () => {
    const s = await hostile({ mode: 'drip', dripIntervalMs: 1000 });
    const client = createApiClient({
      service: 'gate',
      baseUrl: `${s.origin}/v1`,
      label: 't',
      bodyTimeoutMs: 2_000,
      retry: { maxRetries: 3, baseDelayMs: 5, maxDelayMs: 10 },
    });
    const t0 = Date.now();
    const err = await client.get('/capabilities/assets').catch((e) => e);
    const ms = Date.now() - t0;
    expect(err).toBeInstanceOf(TransportError);
    expect(err.kind).toBe('body-timeout');
    expect(err.message).toMatch(/body still arriving after 2 s \(status 200, \d+ bytes? so far\)/);
    expect(err.message.split('\n')).toHaveLength(1);
    // Not retried: a dripping body would only drip again.
    expect(s.seen).toHaveLength(1);
    expect(ms).toBeGreaterThanOrEqual(1_900);
    expect(ms).toBeLessThan(3_500);
  });
});
