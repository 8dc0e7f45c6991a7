// Rate windows: a burst past a window on one key — the 10-per-10-seconds window of a default route (GET
// /dashboard/webhook-settings: a read, nothing changes) and a route row's own first window (POST /webhooks/test, 10 per
// minute, on a partner without a webhook_url: each request answers 400 and enqueues nothing). A window that counts a
// request in and records it a round trip later lets a burst arriving together through whole.
import { familyFile } from '../family.js';
import type { WindowFamily } from '../window.js';

export const defaultWindow: WindowFamily = {
  judge: 'window',
  id: 'rate-first-window',
  file: familyFile(import.meta.url),
  name: 'races, rate limits: a burst of 21 at once on one key of a default route lets at most 10 through its 10-per-10-seconds window',
  service: 'gate',
  requirements: ['GATE-RATE-FIRST-WINDOW'],
  partner: { gate: 'gateNoWebhookUrl' },
  cost: { default: 21 },
  route: { method: 'GET', path: '/dashboard/webhook-settings' },
};

export const routeWindow: WindowFamily = {
  judge: 'window',
  id: 'rate-route-window',
  file: familyFile(import.meta.url),
  name: "races, rate limits: a burst of 21 at once on one key of POST /webhooks/test lets at most 10 through its row's 10-per-minute window",
  service: 'gate',
  requirements: ['GATE-RATE-ROUTE-WRITE10'],
  partner: { gate: 'gateNoWebhookUrl' },
  cost: { write10: 21 },
  route: { method: 'POST', path: '/webhooks/test' },
};
