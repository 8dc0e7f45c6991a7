// The Gate webhook signature recipe: v1 = hex HMAC-SHA256(secret, `${t}.` + raw body bytes),
// header `Gate-Signature: t=<unix>,v1=<hex>[,v1=<hex>…]`, constant-time compare, 300 s skew.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { GATE_LIMITS } from '../model/limits.js';

export interface VerifyOptions {
  rawBody: Buffer | string;
  header: string | undefined;
  secrets: string[];
  nowSeconds: number;
  toleranceSeconds?: number;
}

export interface VerifyResult {
  ok: boolean;
  reason?: string;
  t?: number;
}

function hmacHex(secret: string, t: number | string, rawBody: Buffer | string): string {
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody;
  return createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
}

/** The header value a Gate sender puts on a delivery. */
export function signGateBody(secret: string, t: number, rawBody: Buffer | string): string {
  return `t=${t},v1=${hmacHex(secret, t, rawBody)}`;
}

export function parseSignatureHeader(header: string): { t?: string; v1: string[] } {
  let t: string | undefined;
  const v1: string[] = [];
  for (const part of header.split(',')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    const k = part.slice(0, i).trim();
    const v = part.slice(i + 1).trim();
    if (k === 't' && t === undefined) t = v;
    else if (k === 'v1') v1.push(v);
  }
  return { t, v1 };
}

export function verifyGateSignature(opts: VerifyOptions): VerifyResult {
  const tolerance = opts.toleranceSeconds ?? GATE_LIMITS.webhook.signatureSkewSeconds;
  if (!opts.header) return { ok: false, reason: 'no signature header' };
  const { t: tRaw, v1 } = parseSignatureHeader(opts.header);
  if (tRaw === undefined || !/^\d+$/.test(tRaw)) return { ok: false, reason: 'signature header has no integer t=' };
  const t = Number(tRaw);
  if (v1.length === 0) return { ok: false, reason: 'signature header has no v1=', t };
  if (opts.secrets.length === 0) return { ok: false, reason: 'no signing secret to verify with', t };
  if (Math.abs(opts.nowSeconds - t) > tolerance)
    return { ok: false, reason: `timestamp t=${t} is ${opts.nowSeconds - t} s from now (tolerance ${tolerance} s)`, t };
  for (const secret of opts.secrets) {
    // The signed string uses t exactly as sent (leading zeros included).
    const expected = Buffer.from(hmacHex(secret, tRaw, opts.rawBody), 'utf8');
    for (const candidate of v1) {
      const got = Buffer.from(candidate.toLowerCase(), 'utf8');
      if (got.length === expected.length && timingSafeEqual(got, expected)) return { ok: true, t };
    }
  }
  return { ok: false, reason: 'no v1 signature matches any signing secret', t };
}
