// The Gate signature recipe, checked against an HMAC computed independently with node:crypto.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signGateBody, verifyGateSignature } from '../src/webhooks/verify.js';

const SECRET = 'whsec_' + 'a'.repeat(32);
const OLD_SECRET = 'whsec_' + 'b'.repeat(32);
const BODY = '{"id":"5f0c6f1e-2d43-4c1b-9d0a-2f8f3f6f7a11","type":"webhook.test","created_at":1790000000,"data":{"livemode":false,"message":"hi"}}';
const T = 1_790_000_000;

function independentHex(secret: string, t: number, body: string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(Buffer.from(`${t}.${body}`, 'utf8'))
    .digest('hex');
}

describe('signGateBody / verifyGateSignature', () => {
  it('produces t=<unix>,v1=<hex HMAC-SHA256 over "t." + raw body>', () => {
    expect(signGateBody(SECRET, T, BODY)).toBe(`t=${T},v1=${independentHex(SECRET, T, BODY)}`);
    expect(signGateBody(SECRET, T, Buffer.from(BODY))).toBe(signGateBody(SECRET, T, BODY));
  });

  it('verifies a known vector and reports t', () => {
    const header = `t=${T},v1=${independentHex(SECRET, T, BODY)}`;
    expect(verifyGateSignature({ rawBody: BODY, header, secrets: [SECRET], nowSeconds: T })).toEqual({ ok: true, t: T });
  });

  it('signs the raw bytes: re-serialised JSON with other whitespace does not verify', () => {
    const header = signGateBody(SECRET, T, BODY);
    const reserialised = JSON.stringify(JSON.parse(BODY), null, 1);
    const r = verifyGateSignature({ rawBody: reserialised, header, secrets: [SECRET], nowSeconds: T });
    expect(r.ok).toBe(false);
    expect(r.reason).toMatch(/no v1 signature matches/);
  });

  it('accepts either of two secrets during rotation and rejects an unrelated one', () => {
    const header = signGateBody(OLD_SECRET, T, BODY);
    expect(verifyGateSignature({ rawBody: BODY, header, secrets: [SECRET, OLD_SECRET], nowSeconds: T }).ok).toBe(true);
    expect(verifyGateSignature({ rawBody: BODY, header, secrets: [SECRET], nowSeconds: T }).ok).toBe(false);
  });

  it('tolerance: 300 s either side passes, 301 s fails', () => {
    const header = signGateBody(SECRET, T, BODY);
    expect(verifyGateSignature({ rawBody: BODY, header, secrets: [SECRET], nowSeconds: T + 300 }).ok).toBe(true);
    expect(verifyGateSignature({ rawBody: BODY, header, secrets: [SECRET], nowSeconds: T - 300 }).ok).toBe(true);
    const late = verifyGateSignature({ rawBody: BODY, header, secrets: [SECRET], nowSeconds: T + 301 });
    expect(late.ok).toBe(false);
    expect(late.reason).toMatch(/301 s from now/);
    expect(verifyGateSignature({ rawBody: BODY, header, secrets: [SECRET], nowSeconds: T - 301 }).ok).toBe(false);
  });

  it('a header with several v1 values verifies when any of them matches', () => {
    const good = independentHex(SECRET, T, BODY);
    const other = independentHex(OLD_SECRET, T, BODY);
    const header = `t=${T},v1=${other},v1=${good}`;
    expect(verifyGateSignature({ rawBody: BODY, header, secrets: [SECRET], nowSeconds: T }).ok).toBe(true);
    expect(verifyGateSignature({ rawBody: BODY, header: `t=${T}, v1=${'0'.repeat(64)} , v1=${good}`, secrets: [SECRET], nowSeconds: T }).ok).toBe(true);
  });

  it('rejects a missing header, a missing t, a missing v1 and a tampered body with a reason', () => {
    const header = signGateBody(SECRET, T, BODY);
    expect(verifyGateSignature({ rawBody: BODY, header: undefined, secrets: [SECRET], nowSeconds: T }).reason).toMatch(/no signature header/);
    expect(verifyGateSignature({ rawBody: BODY, header: header.replace(/^t=\d+,/, ''), secrets: [SECRET], nowSeconds: T }).reason).toMatch(/t=/);
    expect(verifyGateSignature({ rawBody: BODY, header: `t=${T}`, secrets: [SECRET], nowSeconds: T }).reason).toMatch(/v1/);
    expect(verifyGateSignature({ rawBody: BODY.replace('hi', 'ho'), header, secrets: [SECRET], nowSeconds: T }).ok).toBe(false);
    // A v1 of the wrong length must be a clean "no", not a timingSafeEqual throw.
    expect(verifyGateSignature({ rawBody: BODY, header: `t=${T},v1=abc`, secrets: [SECRET], nowSeconds: T }).ok).toBe(false);
  });
});
