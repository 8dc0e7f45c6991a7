// Stored quotes: GET /pools/quotes/{quoteId} (a pure read: never consumes or
// extends) and POST .../reject (active → rejected; 409 on every terminal
// state). Status precedence: rejected > consumed > expired > active.
import { HttpError } from '../kit/http.js';
import { parse } from './money.js';
import type { PoolsArea } from './world.js';
import { POOLS_RACE, poolsRaceGap } from './raceFaults.js';

/** The read cache of the sequence fault seq-pools-quote-read-cache-survives-reject (per quote record). */
const quoteReadCache = new WeakMap<object, { status: string; view: unknown }>();

export const area: PoolsArea = {
  name: 'storedQuotes',
  faults: [
    {
      name: 'seq-pools-quote-read-cache-survives-reject',
      service: 'pools',
      requirements: ['POOLS-SQ-REJECT'],
      description:
        'Sequence: GET /pools/quotes/{id} caches the stored quote once read; a transact drops the cache, a reject does not — a quote read, then rejected, still reads active.',
      suite: 'explore',
    },
    {
      name: 'pools-quote-read-extends',
      service: 'pools',
      requirements: ['POOLS-SQ-READ-NO-EXTEND'],
      description: 'Reading a stored quote pushes its expiresAt out by the TTL.',
      suite: 'conformance',
    },
    {
      name: 'pools-quote-read-consumes',
      service: 'pools',
      requirements: ['POOLS-SQ-READ-NO-CONSUME'],
      description: 'Reading a stored quote marks it consumed.',
      suite: 'conformance',
    },
    {
      name: 'pools-reject-terminal-200',
      service: 'pools',
      requirements: ['POOLS-SQ-REJECT-TERMINAL-409'],
      description: 'Rejecting a consumed, rejected or expired quote answers 200 instead of 409.',
      suite: 'conformance',
    },
    {
      name: 'pools-reject-no-rejected-at',
      service: 'pools',
      requirements: ['POOLS-SQ-REJECT'],
      description: 'Reject answers status rejected without setting rejectedAt.',
      suite: 'conformance',
    },
    {
      name: 'pools-precedence-expired-first',
      service: 'pools',
      requirements: ['POOLS-SQ-PRECEDENCE'],
      description: 'A consumed or rejected quote past its TTL reads as expired (expired takes precedence).',
      suite: 'conformance',
    },
    {
      name: 'pools-stored-quote-missing-created-at',
      service: 'pools',
      requirements: ['POOLS-SQ-SHAPE'],
      description: 'The stored quote omits createdAt.',
      suite: 'conformance',
    },
    {
      name: 'pools-reject-moves-money',
      service: 'pools',
      requirements: ['POOLS-BAL-REJECT-NO-MONEY'],
      description: 'Rejecting a quote debits its fiat amount from the balance.',
      suite: 'conformance',
    },
    {
      name: 'pools-event-on-reject',
      service: 'pools',
      requirements: ['POOLS-EVT-NO-REJECT-WEBHOOK'],
      description: 'Rejecting a quote fires a pool.quote.rejected webhook.',
      suite: 'conformance',
    },
    {
      name: 'pools-reject-webhook-anonymous',
      service: 'pools',
      requirements: ['POOLS-EVT-NO-REJECT-WEBHOOK'],
      description: 'Rejecting a quote fires a pool.quote.rejected webhook whose payload names only an internal reference, never the quote.',
      suite: 'conformance',
    },
    {
      name: 'pools-cross-tenant-quote-visible',
      service: 'pools',
      requirements: ['POOLS-ERR-CROSS-TENANT-404'],
      description: "Another partner's quote can be read (200 instead of 404).",
      suite: 'conformance',
    },
  ],
  register(router, world) {
    const f = world.faults;
    const view = (q: Parameters<typeof world.quoteView>[0]) => {
      const v = world.quoteView(q);
      if (f.has('pools-stored-quote-missing-created-at')) delete v.createdAt;
      return v;
    };

    router.on('GET', '/pools/quotes/:quoteId', (req) => {
      const caller = world.auth(req);
      const q = world.quote(caller, req.params.quoteId!);
      if (f.has('pools-quote-read-extends') && world.quoteStatus(q) === 'active')
        q.expiresAtMs = world.clock.now() + (world.profile.reference?.quoteTtlSeconds ?? 15) * 1000;
      if (f.has('pools-quote-read-consumes') && q.consumedAtMs === null) q.consumedAtMs = world.clock.now();
      // Sequence fault: a read caches the stored quote; a transact drops the cache, a reject does not.
      if (f.has('seq-pools-quote-read-cache-survives-reject')) {
        const cached = quoteReadCache.get(q);
        const status = world.quoteStatus(q);
        if (cached && (cached.status === status || status === 'rejected')) return { status: 200, body: cached.view };
        quoteReadCache.set(q, { status, view: view(q) });
      }
      return { status: 200, body: view(q) };
    });

    router.on('POST', '/pools/quotes/:quoteId/reject', async (req) => {
      const caller = world.auth(req);
      const q = world.quote(caller, req.params.quoteId!);
      const status = world.quoteStatus(q);
      if (status !== 'active' && !f.has('pools-reject-terminal-200')) throw new HttpError(409, `Quote ${q.quoteId} is already ${status}.`, `quote_${status}`);
      // Race fault: the quote was checked active; it is marked rejected a round trip later.
      await poolsRaceGap(f, POOLS_RACE.reject);
      if (status === 'active') q.rejectedAtMs = world.stamp();
      const v = view(q);
      if (status === 'active' && f.has('pools-reject-moves-money')) world.post(world.state(caller), 'buy_debit', -parse(q.fiatAmount), null);
      if (status === 'active' && f.has('pools-event-on-reject')) world.emitEvent(caller.partner.name, caller.mode, 'pool.quote.rejected', v);
      // Fault: the rejection webhook names only an internal reference, never the quote.
      if (status === 'active' && f.has('pools-reject-webhook-anonymous'))
        world.emitEvent(caller.partner.name, caller.mode, 'pool.quote.rejected', { reference: world.newId('rej') });
      if (f.has('pools-reject-no-rejected-at')) v.rejectedAt = null;
      return { status: 200, body: v };
    });
  },
};
