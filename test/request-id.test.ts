// "UUID-like per-request id" (Gate, Errors): every common way of writing 128 random bits passes, a counter or a
// timestamp does not.
import { describe, expect, it } from 'vitest';
import { UUID_LIKE } from '../support/gate/errors.js';

describe('request_id is UUID-like', () => {
  it.each([
    '3f2b8c1e-9d4a-4f6b-8e2c-1a7d5b9c0e44',
    '3F2B8C1E9D4A4F6B8E2C1A7D5B9C0E44',
    'req_3f2b8c1e9d4a4f6b8e2c1a7d5b9c0e44',
    'req-3f2b8c1e-9d4a-4f6b-8e2c-1a7d5b9c0e44',
    '01JD5ZQ8WZ3N4V6X7Y8Z9A0B1C',
    'req_01JD5ZQ8WZ3N4V6X7Y8Z9A0B1C',
  ])('%s passes', (id) => expect(UUID_LIKE.test(id)).toBe(true));

  it.each(['req-42', '42', '1764160000000', 'req_2026-11-26T12:00:00Z', '3f2b8c1e-9d4a-4f6b-8e2c', 'not a uuid at all', ''])('%s fails', (id) =>
    expect(UUID_LIKE.test(id)).toBe(false),
  );
});
