// Every secret kind, pushed through every writer the client layer owns or feeds.
import { describe, expect, it } from 'vitest';
import { redact, redactDeep, redactHeaders, registerSecret } from '../src/secrets/index.js';
import { EXCHANGE_BODY_LIMIT, toExchangeRecord } from '../src/report/exchangeRecord.js';
import { toTransportError } from '../src/client/http.js';
import type { Exchange } from '../src/client/types.js';
import { createProgress } from '../src/runner/progress.js';

const SK_TEST = 'sk_test_' + 'A1b2C3d4'.repeat(4);
const SK_LIVE = 'sk_live_' + 'Z9y8X7w6'.repeat(4);
const PK_TEST = 'pk_test_' + 'Q1w2E3r4'.repeat(4);
const GSEC = 'gsec_' + 'k3Jd9sLq0'.repeat(3);
const WHSEC = 'whsec_' + 'MfKQ9r8GKYqrT7Zt'.repeat(2);
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJnc18xIiwicGFydG5lciI6ImFjbWUifQ.dGhpc2lzYXNpZ25hdHVyZQ';
const REGISTERED = 'opaque-custom-credential-7731';

const SECRETS = [SK_TEST, SK_LIVE, PK_TEST, GSEC, WHSEC, JWT, REGISTERED];
/** Tails that must never appear: the part after each recognisable prefix. */
const TAILS = [SK_TEST.slice(8), SK_LIVE.slice(8), PK_TEST.slice(8), GSEC.slice(5), WHSEC.slice(6), JWT.slice(3), REGISTERED];

function expectClean(text: string): void {
  for (const s of SECRETS) expect(text).not.toContain(s);
  for (const t of TAILS) expect(text).not.toContain(t.slice(0, 12));
}

registerSecret(REGISTERED);

describe('redact', () => {
  it('masks each kind and keeps only the recognisable prefix', () => {
    expect(redact(`key ${SK_TEST}`)).toBe('key sk_test_[redacted]');
    expect(redact(`key ${SK_LIVE}.`)).toBe('key sk_live_[redacted].');
    expect(redact(PK_TEST)).toBe('pk_test_[redacted]');
    expect(redact(`client_secret=${GSEC}&x=1`)).toBe('client_secret=gsec_[redacted]&x=1');
    expect(redact(`"${WHSEC}"`)).toBe('"whsec_[redacted]"');
    expect(redact(`X-Embed-Token: ${JWT}`)).toBe('X-Embed-Token: eyJ[redacted]');
    expect(redact(`token ${REGISTERED} end`)).toBe('token [redacted] end');
    expect(redact(`{"revoked_${SK_TEST}":1}`)).toBe('{"revoked_sk_test_[redacted]":1}');
    expect(redact('nothing secret here: gs_123, 10.00 EUR')).toBe('nothing secret here: gs_123, 10.00 EUR');
  });

  it('redactDeep masks strings at any depth, including keys, arrays and errors, without mutating the input', () => {
    const input = { auth: `Bearer ${SK_TEST}`, list: [GSEC, { deep: { whsec: WHSEC } }], [REGISTERED]: 1, n: 5, nil: null, err: new Error(`bad ${JWT}`) };
    const out = redactDeep(input);
    expectClean(JSON.stringify(out));
    expect((out.err as Error).message).toBe('bad eyJ[redacted]');
    expect(out.n).toBe(5);
    expect(out.nil).toBeNull();
    expect(input.auth).toContain(SK_TEST);
  });

  it('redactHeaders masks Authorization, X-Embed-Token and Gate-Signature whole, keeping the scheme', () => {
    const h = redactHeaders({
      Authorization: `Bearer ${SK_TEST}`,
      'x-embed-token': JWT,
      'gate-signature': 't=1,v1=' + 'ab'.repeat(32),
      'x-other': `mentions ${PK_TEST}`,
      'content-type': 'application/json',
    });
    expect(h.Authorization).toBe('Bearer sk_test_[redacted]');
    expect(h['x-embed-token']).toBe('eyJ[redacted]');
    expect(h['gate-signature']).toBe('[redacted]');
    expect(h['x-other']).toBe('mentions pk_test_[redacted]');
    expect(h['content-type']).toBe('application/json');
    expect(redactHeaders({ authorization: 'Bearer not-a-known-shape' }).authorization).toBe('Bearer [redacted]');
  });
});

describe('writers', () => {
  it('toExchangeRecord redacts URL, headers and bodies, and truncates bodies to ~4 KB', () => {
    const ex: Exchange = {
      request: {
        method: 'POST',
        url: `http://127.0.0.1:4010/v1/embed/bootstrap?client_secret=${GSEC}`,
        headers: { authorization: `Bearer ${PK_TEST}`, 'x-embed-token': JWT, 'idempotency-key': 'k1' },
        bodyText: JSON.stringify({ client_secret: GSEC, note: REGISTERED }),
        idempotencyKey: 'k1',
      },
      status: 200,
      headers: { 'x-request-id': 'req_1', 'gate-signature': 't=1,v1=ff' },
      bodyText: JSON.stringify({ embed_token: JWT, secret: WHSEC, key: SK_LIVE, pad: 'x'.repeat(10_000) }),
      json: {},
      requestId: 'req_1',
      startedAt: 1,
      durationMs: 12.7,
      retries: 0,
    };
    const rec = toExchangeRecord(ex);
    expectClean(JSON.stringify(rec));
    expect(rec.requestHeaders['idempotency-key']).toBe('k1');
    expect(rec.requestHeaders.authorization).toBe('Bearer pk_test_[redacted]');
    expect(rec.url).toContain('client_secret=gsec_[redacted]');
    expect(rec.responseBody!.length).toBeLessThan(EXCHANGE_BODY_LIMIT + 64);
    expect(rec.responseBody).toMatch(/more chars\]$/);
    expect(rec.status).toBe(200);
    expect(rec.requestId).toBe('req_1');
    expect(rec.durationMs).toBe(13);
  });

  it('TransportError messages never carry a secret from the URL', () => {
    const url = `http://127.0.0.1:1/v1/x?token=${JWT}&k=${SK_TEST}`;
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'ECONNRESET', 'CERT_HAS_EXPIRED', 'EWHATEVER']) {
      const err = toTransportError(Object.assign(new Error(`failed ${SK_TEST}`), { code }), 'GET', url, `http://127.0.0.1:1/v1?${GSEC}`);
      expectClean(err.message);
      expect(err.message.split('\n')).toHaveLength(1);
    }
    expectClean(toTransportError(new Error('x'), 'GET', url, url, 500).message);
  });

  it('createProgress output (line-by-line mode) is redacted', () => {
    const written: string[] = [];
    const out = { isTTY: false, columns: 120, write: (s: string) => (written.push(s), true) } as unknown as NodeJS.WriteStream;
    const p = createProgress({ live: false, out });
    p.start(2, 'conformance');
    p.checkStarted('a');
    p.checkFinished('a', 'failed', 1200, `401 with ${SK_TEST} and ${WHSEC}`);
    p.line(`note: ${GSEC} ${JWT} ${REGISTERED} ${PK_TEST} ${SK_LIVE}`);
    p.stop();
    const text = written.join('');
    expectClean(text);
    expect(text).toContain('sk_test_[redacted]');
    expect(text).toContain('gsec_[redacted]');
  });
});
