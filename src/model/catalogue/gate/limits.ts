// Gate "Limits": the three per-client rate windows and the route groups that
// replace the first one. Only a load run (scenarios/rate-limits.ts) can fill a
// window without the runner's pacer, so every entry is suite 'load'; the ids
// are the ones scenarios/lib/requirements.ts tags its k6 checks with (and, on a
// profile without its keys, src/load/minuteWindowStream.ts the minute window's).
// The field limits of the same section (list limit/skip, branding, customer
// names, pay-out ids) are catalogued with their endpoints.
import { defineArea } from '../define.js';

const area = defineArea({
  service: 'gate',
  section: 'Limits',
  suite: 'load',
  entries: {
    'GATE-RATE-FIRST-WINDOW': {
      title: 'default routes: 10 requests per 10 seconds pass, the 11th within the window gives 429',
      kind: 'limit',
      anchor: [
        'Rate limits apply per client in three concurrent windows: 10 requests per 10 seconds, 60 per minute, 300 per hour.',
        '| default windows | GET and PATCH /dashboard/webhook-settings, GET /dashboard/webhook-deliveries |',
      ],
    },
    'GATE-RATE-429-ENVELOPE': {
      title:
        "exceeding a limit gives 429 with the error envelope, type rate_limited, and X-Request-Id: every window's 429 (default, the three route windows, the minute and the hour)",
      kind: 'error',
      anchor: ['Exceeding gives 429.', '| 429 | rate_limited | rate limit exceeded |'],
    },
    'GATE-RATE-FIRST-WINDOW-REOPENS': {
      title: 'the 10-second window reopens: capacity returns once the window has passed',
      kind: 'limit',
      anchor: 'Rate limits apply per client in three concurrent windows: 10 requests per 10 seconds, 60 per minute, 300 per hour.',
    },
    'GATE-RATE-FIRST-WINDOW-LENGTH': {
      title:
        'the first window of a default route lasts 10 s: still refused shortly before it could have rolled over, open after it (sliding or fixed readings)',
      kind: 'limit',
      anchor: 'Rate limits apply per client in three concurrent windows: 10 requests per 10 seconds, 60 per minute, 300 per hour.',
    },
    'GATE-RATE-ROUTE-WRITE10-LENGTH': {
      title: 'the 10-per-minute route window (POST /gate_sessions) lasts a minute: still refused shortly before, open after',
      kind: 'limit',
      anchor: '| 10 per minute | POST /gate_sessions',
    },
    'GATE-RATE-ROUTE-WRITE30-LENGTH': {
      title: 'the 30-per-minute route window lasts a minute: still refused shortly before, open after',
      kind: 'limit',
      anchor: '| 30 per minute | POST /quotes/preview',
    },
    'GATE-RATE-ROUTE-READ60-LENGTH': {
      title: 'the 60-per-minute route window lasts a minute: still refused shortly before, open after',
      kind: 'limit',
      anchor: '| 60 per minute | session reads',
    },
    'GATE-RATE-MINUTE-WINDOW-LENGTH': {
      title: 'the 60-per-minute window lasts a minute: still refused shortly before, open after',
      kind: 'limit',
      anchor: 'Rate limits apply per client in three concurrent windows: 10 requests per 10 seconds, 60 per minute, 300 per hour.',
    },
    'GATE-RATE-HOUR-WINDOW-LENGTH': {
      title: 'the 300-per-hour window lasts an hour: still refused shortly before, open after',
      kind: 'limit',
      depth: 'full',
      anchor: 'Rate limits apply per client in three concurrent windows: 10 requests per 10 seconds, 60 per minute, 300 per hour.',
    },
    'GATE-RATE-PER-CLIENT': {
      title: 'rate limits apply per client: another key is unaffected while one is throttled',
      kind: 'limit',
      anchor: 'Rate limits apply per client',
    },
    'GATE-RATE-ROUTE-WRITE10': {
      title: '10 per minute on POST /gate_sessions (and webhook test, secret rotate): the 11th in the minute gives 429',
      kind: 'limit',
      anchor: '| 10 per minute | POST /gate_sessions, POST /dashboard/webhook-secret/rotate, POST /webhooks/test |',
    },
    'GATE-RATE-ROUTE-WRITE30': {
      title: '30 per minute on the write group (e.g. PATCH /branding): 30 quick requests pass, the 31st gives 429',
      kind: 'limit',
      anchor:
        '| 30 per minute | POST /quotes/preview, POST /quotes, POST /rails/pay_ins, POST /rails/pay_outs, POST /embed/bootstrap, POST /gate_sessions/{id}/cancel, customer writes, PATCH /branding, webhook replay |',
    },
    'GATE-RATE-ROUTE-READ60': {
      title: '60 per minute on the read group (e.g. GET /branding): 60 quick requests pass, the 61st gives 429',
      kind: 'limit',
      anchor:
        '| 60 per minute | session reads, capabilities, transaction reads, quote and rail reads, customer reads, GET /branding, dashboard volume, dashboard usage, GET /webhooks/deliveries |',
    },
    'GATE-RATE-ROUTES-WRITE10': {
      title:
        'every other route of the 10-per-minute row is in that window: POST /webhooks/test and POST /dashboard/webhook-secret/rotate pass 10, refuse the 11th, and still refuse one default window (10 s) later',
      kind: 'limit',
      anchor: '| 10 per minute | POST /gate_sessions, POST /dashboard/webhook-secret/rotate, POST /webhooks/test |',
    },
    'GATE-RATE-ROUTES-WRITE30': {
      title:
        'every other route of the 30-per-minute row is in that window: preview, quote lock, pay-ins, pay-outs, bootstrap, cancel, customer writes and replay each pass 30 back to back and refuse the 31st',
      kind: 'limit',
      anchor:
        '| 30 per minute | POST /quotes/preview, POST /quotes, POST /rails/pay_ins, POST /rails/pay_outs, POST /embed/bootstrap, POST /gate_sessions/{id}/cancel, customer writes, PATCH /branding, webhook replay |',
    },
    'GATE-RATE-ROUTES-READ60': {
      title:
        'every other route of the 60-per-minute row is in that window: session, capability, transaction, quote and rail, customer reads, dashboard volume and usage and the deliveries list each pass 60 back to back and refuse the 61st (the row window and the minute window both count it: a route no window counts fails)',
      kind: 'limit',
      anchor:
        '| 60 per minute | session reads, capabilities, transaction reads, quote and rail reads, customer reads, GET /branding, dashboard volume, dashboard usage, GET /webhooks/deliveries |',
    },
    'GATE-RATE-ROUTES-DEFAULT': {
      title:
        'the other routes of the default-windows row keep them: PATCH /dashboard/webhook-settings and GET /dashboard/webhook-deliveries pass 10, refuse the 11th, and pass again one default window (10 s) later',
      kind: 'limit',
      anchor: '| default windows | GET and PATCH /dashboard/webhook-settings, GET /dashboard/webhook-deliveries |',
    },
    'GATE-RATE-ROUTE-REPLACES-FIRST-ONLY': {
      title: 'a route-specific limit replaces only the first window: the 60-per-minute window still applies across routes',
      kind: 'limit',
      anchor: 'A route-specific limit replaces only the first window.',
    },
    'GATE-RATE-MINUTE-WINDOW': {
      title: '60 requests per minute per client: the 61st paced request within the minute gives 429',
      kind: 'limit',
      anchor: 'Rate limits apply per client in three concurrent windows: 10 requests per 10 seconds, 60 per minute, 300 per hour.',
    },
    'GATE-RATE-HOUR-WINDOW': {
      title: '300 requests per hour per client: the 301st paced request within the hour gives 429',
      kind: 'limit',
      depth: 'full',
      anchor: 'Rate limits apply per client in three concurrent windows: 10 requests per 10 seconds, 60 per minute, 300 per hour.',
    },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'gate/limits': typeof area.entries;
  }
}
