// Gate "Limits": the three per-client rate windows and the route groups that
// replace the first one. Only a load run (scenarios/rate-limits.ts) can fill a
// window without the runner's pacer, so every entry is suite 'load'; the ids
// are the ones scenarios/lib/requirements.ts tags its k6 checks with.
// The field limits of the same section (list limit/skip, branding, customer
// names, pay-out ids) are catalogued with their endpoints.
import type { Requirement } from '../types.js';

const SECTION = 'Limits';
const r = (id: string, title: string, kind: Requirement['kind'], depth?: 'full'): Requirement => ({
  id,
  service: 'gate',
  section: SECTION,
  title,
  kind,
  roles: ['gate.partner'],
  suite: 'load',
  ...(depth ? { depth } : {}),
});

export const requirements: Requirement[] = [
  r('GATE-RATE-FIRST-WINDOW', 'default routes: 10 requests per 10 seconds pass, the 11th within the window gives 429', 'limit'),
  r('GATE-RATE-429-ENVELOPE', 'exceeding a limit gives 429 with the error envelope, type rate_limited, and X-Request-Id', 'error'),
  r('GATE-RATE-FIRST-WINDOW-REOPENS', 'the 10-second window reopens: a request 10 s after the burst passes', 'limit'),
  r('GATE-RATE-PER-CLIENT', 'rate limits apply per client: another key is unaffected while one is throttled', 'limit'),
  r('GATE-RATE-ROUTE-WRITE10', '10 per minute on POST /gate_sessions (and webhook test, secret rotate): the 11th in the minute gives 429, still after 10 s', 'limit'),
  r('GATE-RATE-ROUTE-WRITE30', '30 per minute on the write group (e.g. PATCH /branding): 30 quick requests pass, the 31st gives 429', 'limit'),
  r('GATE-RATE-ROUTE-READ60', '60 per minute on the read group (e.g. GET /branding): 60 quick requests pass, the 61st gives 429', 'limit'),
  r('GATE-RATE-ROUTE-REPLACES-FIRST-ONLY', 'a route-specific limit replaces only the first window: the 60-per-minute window still applies across routes', 'limit'),
  r('GATE-RATE-MINUTE-WINDOW', '60 requests per minute per client: the 61st paced request within the minute gives 429', 'limit'),
  r('GATE-RATE-HOUR-WINDOW', '300 requests per hour per client: the 301st paced request within the hour gives 429', 'limit', 'full'),
];
