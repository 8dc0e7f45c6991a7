// The 5xx scrub judge (support/gate/errors.ts leaksIn): a generic internal
// error text passes (times and digits included); internals of every kind are
// named, including the three a blacklist of stack frames and exception names let through.
import { describe, expect, it } from 'vitest';
import { leaksIn } from '../support/gate/errors.js';

describe('a 5xx message scrubbed to a generic internal error text', () => {
  it.each([
    'internal',
    'Internal server error',
    'An internal error occurred. Please try again later.',
    'Something went wrong on our side; we have been notified (request 7f9c2b1e-1d2a-4c3b-9e8f-0a1b2c3d4e5f).',
    'Unexpected error — contact support@example.test if it persists.',
    'The service is temporarily unavailable, try again in a few minutes',
    'We could not get an answer from the payment partner in time',
    // Digits and times are no internals: a clock time is not a port, a date is not an address.
    'The service is busy: please try again at 10:30 (UTC).',
    'Scheduled maintenance until 2026-05-25T10:30:00Z; retry after 10:30:15.',
    'Try again at 3:05 pm, maintenance window 02:00-04:00',
    'Error 503: try again in 30 seconds (incident 48213)',
  ])('%j is generic', (message) => {
    expect(leaksIn(message, { request_id: '7f9c2b1e-1d2a-4c3b-9e8f-0a1b2c3d4e5f' })).toEqual([]);
  });

  it('the envelope’s own code, type and request_id may be quoted', () => {
    expect(leaksIn('internal_error (server_error), request req_abc_123', { code: 'internal_error', type: 'server_error', request_id: 'req_abc_123' })).toEqual(
      [],
    );
  });

  it.each([
    ["Cannot read properties of undefined (reading 'id')", 'an exception or JavaScript error text'],
    ['connect ECONNREFUSED 10.0.0.5:5432', 'a URL, host, IP address or port'],
    ['connect ECONNREFUSED 10.0.0.5:5432', 'a system error code'],
    ['duplicate key value violates unique constraint "customers_email_key"', 'database error text'],
    ['duplicate key value violates unique constraint "customers_email_key"', 'code: an identifier, a member call or a character plain words never use'],
    ['TypeError: x is not a function\n    at handler (/app/src/routes/customers.ts:42:13)', 'a second line'],
    ['TypeError: x is not a function at handler (/app/src/routes/customers.ts:42:13)', 'a stack frame'],
    ['failed in /app/api/handlers/pay.js', 'a file path or source location'],
    ['SELECT balance FROM ledger WHERE partner_id = $1', 'SQL'],
    ['upstream https://core.internal:8443/v2/ledger timed out', 'a URL, host, IP address or port'],
    ['getaddrinfo ENOTFOUND db-primary.internal', 'a system error code'],
    ['user.save() failed', 'code: an identifier, a member call or a character plain words never use'],
    ['{"error":"boom"}', 'code: an identifier, a member call or a character plain words never use'],
    ['x'.repeat(201), 'more than 200 characters'],
    // A time beside them hides nothing.
    ['try again at 10:30: redis:6379 refused the connection', 'a URL, host, IP address or port'],
    ['at 10:30 the call to db-primary.internal:5432 timed out', 'a URL, host, IP address or port'],
    ['upstream fe80::1:2:3 unreachable', 'a URL, host, IP address or port'],
  ])('%j gives away %s', (message, kind) => {
    expect(leaksIn(message)).toContain(kind);
  });
});
