// run.har: real traffic against the embedded target, recorded as HAR 1.2,
// validated against har-schema, holding every exchange and no secret.
import { Ajv } from 'ajv';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../src/client/http.js';
import { registerSecret } from '../src/secrets/index.js';
import type { Exchange } from '../src/client/types.js';
import { HarRecorder, type Har } from '../src/report/har.js';
import { scanText } from '../src/secrets/index.js';
import type { RunningReference } from '../src/reference/server.js';
import { startEmbedded } from './support/embedded.js';

const require = createRequire(import.meta.url);
const harSchemas = require('har-schema') as Record<string, object>;
const addFormats = require('ajv-formats') as (ajv: Ajv) => Ajv;
const draft06 = require('ajv/dist/refs/json-schema-draft-06.json') as object;

const tmp = mkdtempSync(join(tmpdir(), 'rampart-har-'));
let ref: RunningReference;
const exchanges: { ex: Exchange; check: string }[] = [];
const secrets: string[] = [];

/** har-schema 2.0 (draft-06) with ajv: the HAR 1.2 log and everything it references. */
function harValidator() {
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addMetaSchema(draft06);
  addFormats(ajv);
  for (const [name, schema] of Object.entries(harSchemas)) if (name !== 'har') ajv.addSchema(schema);
  return ajv.compile(harSchemas.har!);
}

beforeAll(async () => {
  ref = await startEmbedded();
  const gp = ref.profile.gate.partners[0]!;
  const pp = ref.profile.pools!.partners[0]!;
  // As the CLI does: every profile secret is known to the redaction.
  for (const s of [gp.secretKey, gp.publishableKey, gp.webhookSecret, pp.secretKey]) if (s) (registerSecret(s), secrets.push(s));

  const record = (check: string) => (ex: Exchange) => exchanges.push({ ex, check });
  let check = '';
  const gate = createApiClient({
    service: 'gate',
    baseUrl: ref.urls.gateSandbox,
    label: gp.name,
    secretKey: gp.secretKey,
    publishableKey: gp.publishableKey,
    onExchange: (ex) => record(check)(ex),
  });
  const pools = createApiClient({
    service: 'pools',
    baseUrl: ref.urls.poolsSandbox,
    label: pp.name,
    secretKey: pp.secretKey,
    onExchange: (ex) => record(check)(ex),
  });

  check = 'create a session';
  const created = await gate.post(
    '/gate_sessions',
    { amount: '25.00', currency: 'EUR', return_url: 'https://shop01.example.test/done', metadata: { note: 'x'.repeat(300) } },
    { idempotencyKey: true },
  );
  expect(created.status).toBeLessThan(300);
  const clientSecret = created.json.client_secret as string;
  expect(clientSecret).toMatch(/^gsec_/);
  secrets.push(clientSecret);

  check = 'bootstrap the embed';
  const boot = await gate.post('/embed/bootstrap', { clientSecret }, { auth: 'publishable', headers: { origin: gp.allowedOrigins![0]! } });
  expect(boot.status).toBeLessThan(300);
  // The embed token is a JWT somewhere in the response: the recorder must mask it.
  const jwt = /eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/.exec(boot.bodyText)?.[0];
  expect(jwt).toBeDefined();
  secrets.push(jwt!);

  check = 'retrieve the session';
  await gate.get(`/gate_sessions/${created.json.id}`, { expand: 'none' });
  check = 'an opaque bearer is refused';
  await gate.get('/branding', undefined, { auth: { bearer: 'opaque-credential-value-0042' }, retry: false });
  secrets.push('opaque-credential-value-0042');
  check = 'discover pools';
  await pools.get('/pools');
  check = 'quote';
  await pools.post(`/pools/${ref.profile.pools!.pools.main}/quote`, { side: 'on_ramp', ...ref.profile.pools!.quote });
}, 60_000);

afterAll(async () => {
  await ref?.close();
  rmSync(tmp, { recursive: true, force: true });
});

function recordAll(opts: { bodyLimit?: number; maxEntries?: number } = {}): HarRecorder {
  const rec = new HarRecorder({ creatorVersion: '0.1.0', ...opts });
  for (const { ex, check } of exchanges) rec.record(ex, { check, suite: 'conformance' });
  return rec;
}

describe('HarRecorder', () => {
  it('writes a HAR 1.2 log that validates against har-schema 2.0', () => {
    const file = join(tmp, 'run.har');
    recordAll().write(file);
    const har = JSON.parse(readFileSync(file, 'utf8')) as Har;
    const validate = harValidator();
    const ok = validate(har);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator).toEqual({ name: 'rampart', version: '0.1.0' });
  });

  it('the validator is not a rubber stamp: a HAR missing required fields fails it', () => {
    const har = recordAll().toHar() as unknown as { log: { entries: Record<string, unknown>[] } };
    delete har.log.entries[0]!.timings;
    expect(harValidator()(har)).toBe(false);
  });

  it('holds every recorded exchange: method, url path, status, timings, request and response bodies, the check name', () => {
    const har = recordAll().toHar();
    expect(exchanges.length).toBe(6);
    expect(har.log.entries).toHaveLength(exchanges.length);
    for (const { ex, check } of exchanges) {
      const entry = har.log.entries.find((e) => e.startedDateTime === new Date(ex.startedAt).toISOString() && e._check === check);
      expect(entry, check).toBeDefined();
      expect(entry!.request.method).toBe(ex.request.method);
      expect(new URL(entry!.request.url).pathname).toBe(new URL(ex.request.url).pathname);
      expect(entry!.response.status).toBe(ex.status);
      expect(entry!.time).toBeCloseTo(ex.durationMs, 2);
      expect(entry!.timings.wait).toBe(entry!.time);
      expect(entry!._suite).toBe('conformance');
      expect(entry!.response.content.size).toBe(Buffer.byteLength(ex.bodyText));
      expect(entry!.response.content.mimeType).toMatch(/json/);
      if (ex.request.bodyText !== undefined) expect(entry!.request.postData).toMatchObject({ mimeType: 'application/json' });
    }
    const retrieve = har.log.entries.find((e) => e._check === 'retrieve the session')!;
    expect(retrieve.request.queryString).toEqual([{ name: 'expand', value: 'none' }]);
    // Entries are in start order, as viewers expect.
    const starts = har.log.entries.map((e) => e.startedDateTime);
    expect([...starts].sort()).toEqual(starts);
  });

  it('no secret in any form: keys, client_secret, embed token and opaque bearer are masked and the secret scan finds nothing', () => {
    const file = join(tmp, 'scan.har');
    recordAll().write(file);
    const text = readFileSync(file, 'utf8');
    expect(scanText(text)).toEqual([]);
    for (const s of secrets) expect(text).not.toContain(s);
    // What stands in their place is still readable.
    expect(text).toContain('gsec_[redacted]');
    expect(text).toContain('eyJ[redacted]');
    const har = JSON.parse(text) as Har;
    for (const e of har.log.entries)
      expect(e.request.headers.find((h) => h.name === 'authorization')?.value, e._check).toMatch(/^Bearer ((sk|pk)_test_)?\[redacted\]$/);
    const opaque = har.log.entries.find((e) => e._check === 'an opaque bearer is refused')!;
    expect(opaque.request.headers.find((h) => h.name === 'authorization')?.value).toBe('Bearer [redacted]');
  });

  it('long bodies are cut with a comment, and entries past the limit are counted, not silently lost', () => {
    const rec = recordAll({ bodyLimit: 100, maxEntries: 4 });
    const har = rec.toHar();
    expect(har.log.entries).toHaveLength(4);
    expect(har.log.comment).toBe('2 later exchange(s) not recorded: the 4-entry limit was reached');
    const created = har.log.entries.find((e) => e._check === 'create a session')!;
    expect(created.request.postData!.text).toHaveLength(100);
    expect(created.request.postData!.comment).toMatch(/^cut to 100 of \d+ characters$/);
    expect(harValidator()(har)).toBe(true);
  });
});
