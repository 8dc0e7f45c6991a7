// "UUID-like per-request id" (Gate, Errors): every common way of writing about a UUID's worth of random bits passes —
// hex with or without hyphens, a ULID, base-62 or base-64url, alone or after a short prefix — and a counter, a
// timestamp or a short code does not. The shape is what the check observes.
import { describe, expect, it } from 'vitest';
import { isUuidLike, requestIdShape } from '../support/gate/errors.js';

describe('request_id is UUID-like', () => {
  it.each([
    '3f2b8c1e-9d4a-4f6b-8e2c-1a7d5b9c0e44',
    '3F2B8C1E9D4A4F6B8E2C1A7D5B9C0E44',
    'req_3f2b8c1e9d4a4f6b8e2c1a7d5b9c0e44',
    'req-3f2b8c1e-9d4a-4f6b-8e2c-1a7d5b9c0e44',
    '01JD5ZQ8WZ3N4V6X7Y8Z9A0B1C',
    'req_01JD5ZQ8WZ3N4V6X7Y8Z9A0B1C',
    // base62 (short-uuid style, 22 characters) and a KSUID (27), alone or prefixed
    '7N42dgm5tFLK9N8MT7fHC7',
    'req_7N42dgm5tFLK9N8MT7fHC7',
    '0ujtsYcgvSTl8PAuAdqWYSMnLOv',
    // base62 that happens to hold no capital letter, base-64url with its - and _
    '4k2m9x7q0p3w8z1c5v6b2n',
    'Zx3_k9-Qw7eR2tY8uI1oPa',
  ])('%s passes', (id) => expect(isUuidLike(id)).toBe(true));

  it.each([
    'req-42',
    '42',
    '1764160000000',
    'request-1764160000000',
    'req_2026-11-26T12:00:00Z',
    '3f2b8c1e-9d4a-4f6b-8e2c',
    'req_8Bwr4VKovB',
    'not a uuid at all',
    '',
  ])('%s fails', (id) => expect(isUuidLike(id)).toBe(false));

  it('the shape names the prefix, the alphabet and the bits written', () => {
    expect(requestIdShape('req_7N42dgm5tFLK9N8MT7fHC7')).toEqual({ prefix: 'req', alphabet: 'base62', chars: 22, bits: 130 });
    expect(requestIdShape('3f2b8c1e-9d4a-4f6b-8e2c-1a7d5b9c0e44')).toEqual({ prefix: null, alphabet: 'hex', chars: 32, bits: 128 });
    expect(requestIdShape('01JD5ZQ8WZ3N4V6X7Y8Z9A0B1C')?.alphabet).toBe('base36');
    expect(requestIdShape('req_2026-11-26T12:00:00Z')).toBeUndefined();
  });
});
