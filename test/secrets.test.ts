// Masking by value: a secret comes back from a target whole, as its random part
// alone, URL-encoded or base64 — redaction masks every form and the scan finds them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../src/client/http.js';
import { toExchangeRecord } from '../src/report/exchangeRecord.js';
import { formsOf, redact, redactHeaders, registerSecret, scanText } from '../src/secrets/index.js';
import { startHostile, type HostileServer } from './support/hostileServer.js';

// Profile values: a secret key, and a webhook secret whose random part needs URL-encoding.
const SK = 'sk_test_' + 'Rq7Lm2Xv9Kp4Tz8Wn3Ys'.repeat(2);
const SK_TAIL = SK.slice('sk_test_'.length);
const WHSEC = 'whsec_' + 'MfKQ9r8G+KYq/rT7Zt=Hw2';
const WH_TAIL = WHSEC.slice('whsec_'.length);
registerSecret(SK);
registerSecret(WHSEC);

/** Every way the tests let a value come back. */
function leakedForms(v: string): string[] {
  return [v, encodeURIComponent(v), Buffer.from(v).toString('base64'), Buffer.from(`user:${v}`).toString('base64')];
}

describe('formsOf', () => {
  it('a prefixed key is masked by its random part; short random parts by the whole value', () => {
    expect([...formsOf(SK).entries()][0]).toEqual([SK_TAIL, 'random part']);
    expect([...formsOf('sk_test_short1').entries()][0]).toEqual(['sk_test_short1', 'value']);
    expect([...formsOf('opaque-credential-123').entries()][0]).toEqual(['opaque-credential-123', 'value']);
  });

  it('lists the URL-encoded form and base64 at every byte alignment', () => {
    const forms = formsOf(WHSEC);
    expect(forms.get(encodeURIComponent(WH_TAIL))).toBe('URL-encoded');
    // Inside any longer base64 text ("Basic base64(user:secret)") one of the alignments appears.
    for (const lead of ['', 'a', 'ab', 'user:', 'xy:']) {
      const encoded = Buffer.from(lead + WH_TAIL + 'tail').toString('base64');
      expect([...forms.keys()].some((f) => encoded.includes(f))).toBe(true);
    }
  });
});

describe('redact and scan by value', () => {
  it('masks the random part alone, URL-encoded and base64, keeping a masked key readable', () => {
    for (const tail of [SK_TAIL, WH_TAIL]) {
      for (const form of leakedForms(tail)) {
        const text = `{"echo":"${form}"}`;
        expect(redact(text)).not.toContain(form);
        expect(redact(text)).toContain('[redacted]');
        expect(scanText(text).length).toBeGreaterThan(0);
      }
    }
    expect(redact(`key ${SK}`)).toBe('key sk_test_[redacted]');
    expect(scanText(redact(`key ${SK} ${WH_TAIL}`))).toEqual([]);
  });

  it('the scan names the form it found, never the value', () => {
    const kinds = scanText(`a ${SK_TAIL} b ${encodeURIComponent(WH_TAIL)}`).map((f) => f.kind);
    expect(kinds).toEqual(['known secret value (random part)', 'known secret value (URL-encoded)']);
    for (const k of kinds) expect(k).not.toContain(SK_TAIL.slice(0, 8));
  });

  it('redactHeaders masks a Basic credential built from a secret', () => {
    const h = redactHeaders({ authorization: `Basic ${Buffer.from(`acct:${SK}`).toString('base64')}`, 'x-echo': Buffer.from(SK_TAIL).toString('base64') });
    expect(h.authorization).toMatch(/^Basic .*\[redacted\]/);
    expect(h['x-echo']).toContain('[redacted]');
  });
});

describe('a target echoing secrets', () => {
  let server: HostileServer;
  beforeAll(async () => {
    server = await startHostile({ mode: 'healthy', echo: [SK_TAIL, WH_TAIL] });
  });
  afterAll(() => server.close());

  it('the random part of a key in a JSON body, a header and URL-encoded in a URL: masked in the record, caught by the scan', async () => {
    const client = createApiClient({ service: 'gate', baseUrl: `${server.origin}/v1`, label: 't', secretKey: SK });
    const ex = await client.get('/capabilities/assets');
    expect(ex.status).toBe(200);
    // The raw exchange holds every form: the scan catches each.
    expect(ex.bodyText).toContain(SK_TAIL);
    expect(ex.bodyText).toContain(encodeURIComponent(WH_TAIL));
    expect(ex.headers['x-echo']).toContain(SK_TAIL);
    const raw = JSON.stringify({ body: ex.bodyText, headers: ex.headers });
    const kinds = new Set(scanText(raw).map((f) => f.kind));
    expect(kinds).toEqual(new Set(['known secret value (random part)', 'known secret value (URL-encoded)', 'known secret value (base64)']));
    // The report's record holds none.
    const record = JSON.stringify(toExchangeRecord(ex));
    for (const tail of [SK_TAIL, WH_TAIL]) for (const form of leakedForms(tail).slice(0, 3)) expect(record).not.toContain(form);
    expect(scanText(record)).toEqual([]);
  });

  it('a key the target issues is registered from its answer: its random part echoed later is masked too', async () => {
    const issued = 'sk_test_' + 'IssuedByTarget0042xyzQ';
    const echo = await startHostile({ mode: 'healthy', echo: [issued] });
    try {
      const client = createApiClient({ service: 'gate', baseUrl: `${echo.origin}/v1`, label: 't', secretKey: SK });
      await client.get('/capabilities/assets');
      const later = `{"note":"rotated to ${issued.slice(8)}"}`;
      expect(redact(later)).not.toContain(issued.slice(8));
      expect(scanText(later)).toEqual([expect.objectContaining({ kind: 'known secret value (random part)' })]);
    } finally {
      await echo.close();
    }
  });
});
