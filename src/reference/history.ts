// A lived-in sandbox: what every partner already holds when a remote sandbox is
// first reached (profile reference.history). Sessions, customers and pools
// trades are made by the services' own routes, so they are exactly what the API
// would have made; webhook deliveries that ended long ago are kept as ended. All
// of it lies in the target's past: its clock is moved back while it is written.
import { randomUUID } from 'node:crypto';
import type { Profile } from '../profile/schema.js';
import type { OffsetClock } from './kit/clock.js';
import { HttpError, type Reply, type Router } from './kit/http.js';
import type { WebhookOutbox } from './kit/outbox.js';

const DAY_MS = 86_400_000;
/** History spans days 7 to 2 before now: outside every rolling 24 h window, inside any list. */
const SPAN_START_MS = 7 * DAY_MS;
const SPAN_END_MS = 2 * DAY_MS;

type Dispatch = (method: string, path: string, key: string, body?: unknown, lenient?: boolean) => Promise<Reply>;

function dispatcher(router: Router, service: string): Dispatch {
  return async (method, path, key, body, lenient = false) => {
    const [p, q = ''] = path.split('?');
    const m = router.match(method, p!);
    if (!m.handler) throw new Error(`history: no ${service} route ${method} ${p}`);
    const raw = body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(body));
    let reply: Reply;
    try {
      reply = await call();
    } catch (e) {
      if (!(e instanceof HttpError)) throw e;
      reply = { status: e.status, body: { code: e.code, message: e.message } };
    }
    if (reply.status >= 300 && !lenient)
      throw new Error(`history: ${service} ${method} ${p} answered ${reply.status}: ${JSON.stringify(reply.body).slice(0, 200)}`);
    return reply;
    async function call(): Promise<Reply> {
      return m.handler!({
        method,
        path: p!,
        query: new URLSearchParams(q),
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        rawBody: raw,
        params: m.params,
        requestId: randomUUID(),
        raw: undefined as never,
        env: 'test',
      });
    }
  };
}

const idOf = (r: Reply, field = 'id') => String((r.body as Record<string, unknown>)[field]);

export async function fillHistory(opts: {
  profile: Profile;
  clock: OffsetClock;
  gateRouter: Router;
  poolsRouter: Router | null;
  outbox: WebhookOutbox;
}): Promise<{ sessions: number; customers: number; trades: number; deliveries: number }> {
  const { profile, clock, outbox } = opts;
  const want = profile.reference?.history;
  const made = { sessions: 0, customers: 0, trades: 0, deliveries: 0 };
  if (!want) return made;
  const gatePartners = profile.gate.partners;
  const poolsPartners = (profile.pools?.partners ?? []).filter((p) => p.state === 'funded' && p.balanceGate);
  const steps = gatePartners.length * (want.sessions + want.customers + want.deliveries) + poolsPartners.length * want.trades;
  const stepMs = steps > 0 ? (SPAN_START_MS - SPAN_END_MS) / steps : 0;
  let at = -SPAN_START_MS;
  const tick = () => {
    at += stepMs;
    clock.shiftMs = Math.round(at);
  };
  const helper = profile.reference?.helperPrefix ?? '/_sandbox';
  try {
    const gate = dispatcher(opts.gateRouter, 'gate');
    for (const p of gatePartners) {
      const defaults = { amount: '100.00', currency: 'EUR', return_url: 'https://shop.example.test/return', ...(profile.gate.sessionDefaults ?? {}) };
      delete (defaults as Record<string, unknown>).$comment;
      for (let i = 0; i < want.sessions; i++) {
        tick();
        const id = idOf(await gate('POST', '/gate_sessions', p.secretKey, { ...defaults, user_reference: `history-${i}` }));
        // Some of a partner's past sessions ended: cancelled, or completed by a buy.
        if (i % 5 === 1) await gate('POST', `/gate_sessions/${encodeURIComponent(id)}/cancel`, p.secretKey);
        else if (i % 5 === 3) await gate('POST', `${helper}/gate_sessions/${encodeURIComponent(id)}/complete`, p.secretKey, {});
        made.sessions++;
      }
      for (let i = 0; i < want.customers; i++) {
        tick();
        const tag = randomUUID().slice(0, 8);
        const id = idOf(
          await gate('POST', '/customers', p.secretKey, {
            email: `history-${tag}@example.test`,
            external_id: `history-${tag}`,
            phone: `+4930${String(i).padStart(7, '0')}`,
          }),
        );
        if (i % 6 === 5) await gate('DELETE', `/customers/${encodeURIComponent(id)}`, p.secretKey);
        made.customers++;
      }
      for (let i = 0; i < want.deliveries; i++) {
        tick();
        const now = clock.now();
        const dead = i % 8 === 7;
        const eventId = randomUUID();
        outbox.importEnded({
          partner: p.name,
          service: 'gate',
          mode: 'test',
          eventId,
          eventType: i % 3 === 0 ? 'customer.created' : 'gate_session.created',
          targetUrl: 'https://hooks.partner.example/gate',
          status: dead ? 'dead_lettered' : 'succeeded',
          attempts: dead ? 5 : 1,
          lastResponseStatus: dead ? 500 : 200,
          lastError: dead ? 'HTTP 500' : null,
          nextAttemptAt: null,
          deliveredAt: dead ? null : now,
          createdAt: now,
          updatedAt: now,
          body: JSON.stringify({ id: eventId, type: 'gate_session.created', created_at: Math.floor(now / 1000), data: {} }),
        });
        made.deliveries++;
      }
    }
    if (opts.poolsRouter && profile.pools) {
      const pools = dispatcher(opts.poolsRouter, 'pools');
      const pool = profile.pools.pools.main;
      const { $comment: _, ...q } = profile.pools.quote;
      for (const p of poolsPartners) {
        if (p.allowedPools && !p.allowedPools.includes(pool)) continue;
        for (let i = 0; i < want.trades; i++) {
          tick();
          const quote = await pools('POST', `/pools/${encodeURIComponent(pool)}/quote`, p.secretKey, { side: 'on_ramp', ...q, type: 'firm' });
          const quoteId = idOf(quote, 'quoteId');
          const traded = await pools('POST', `/pools/${encodeURIComponent(pool)}/transact`, p.secretKey, { quoteId }, !!p.velocityCap);
          // A partner with a velocity cap holds the history its cap allowed.
          if (traded.status === 429) break;
          // The poll advances settlement, as the partner's own reconciliation did.
          await pools('GET', `/pools/transactions/${encodeURIComponent(quoteId)}`, p.secretKey);
          made.trades++;
        }
      }
    }
  } finally {
    clock.shiftMs = 0;
  }
  return made;
}
