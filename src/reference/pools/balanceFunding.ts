// Balance (entitled), funding instructions and the ledger (secret-only reads).
// Balance = payin credits − buy debits + releases + refunds, at every moment.
import { createHash } from 'node:crypto';
import { HttpError } from '../kit/http.js';
import { choiceOf } from '../kit/dialect.js';
import { format } from './money.js';
import { unavailableReason } from './poolStates.js';
import { postedByBalanceRead } from './transact.js';
import type { LedgerEntry, PartnerState, PoolsArea, PoolsWorld, Caller } from './world.js';
import { ledgerPageStart, poolScopedBalance } from './blindBalanceCopies.js';

const LEDGER_CURSOR = /^[A-Za-z0-9_-]{1,128}$/;

/** The balance cache of the sequence fault seq-pools-balance-cache-survives-release: the balance, and the postings it had seen. */
const balanceCache = new WeakMap<object, { balance: bigint; postings: number }>();

/** The partner's balance, as the cache of the sequence fault holds it (releases never drop it), or as it is. */
function cachedBalance(world: PoolsWorld, st: PartnerState): bigint {
  if (!world.faults.has('seq-pools-balance-cache-survives-release')) return st.balance;
  const postings = st.ledger.filter((e) => e.type !== 'reservation_release').length;
  const hit = balanceCache.get(st);
  if (hit && hit.postings === postings) return hit.balance;
  balanceCache.set(st, { balance: st.balance, postings });
  return st.balance;
}

export const area: PoolsArea = {
  name: 'balanceFunding',
  faults: [
    {
      name: 'seq-pools-balance-cache-survives-release',
      service: 'pools',
      requirements: ['POOLS-BAL-RELEASED-UNWOUND'],
      description:
        "Sequence: GET /pools/{id}/balance caches the partner's balance once read; every ledger posting drops the cache but the release of a reservation (the poll's unwinding) — a balance read after a reservation, then a release, still shows the reserved amount drawn.",
      suite: 'explore',
    },
    {
      name: 'pools-balance-gate-off-zero',
      service: 'pools',
      requirements: ['POOLS-BAL-GATE-OFF-NULL'],
      description: 'With the balance gate off, balance is "0.00" instead of null.',
      suite: 'conformance',
    },
    {
      name: 'pools-balance-as-number',
      service: 'pools',
      requirements: ['POOLS-BAL-SHAPE'],
      description: 'balance is a JSON number instead of a decimal string.',
      suite: 'conformance',
    },
    {
      name: 'pools-funding-any-currency',
      service: 'pools',
      requirements: ['POOLS-FUND-NON-EUR-400'],
      description: 'A funding currency other than EUR is accepted.',
      suite: 'conformance',
    },
    {
      name: 'pools-funding-gate-off-200',
      service: 'pools',
      requirements: ['POOLS-FUND-GATE-OFF-404'],
      description: 'Funding answers 200 although the balance gate is off.',
      suite: 'conformance',
    },
    {
      name: 'pools-funding-default-currency-required',
      service: 'pools',
      requirements: ['POOLS-FUND-DEFAULT-EUR'],
      description: 'Funding without currency gives 400 instead of defaulting to EUR.',
      suite: 'conformance',
    },
    {
      name: 'pools-funding-missing-reference',
      service: 'pools',
      requirements: ['POOLS-FUND-SHAPE'],
      description: 'The funding object omits reference.',
      suite: 'conformance',
    },
    {
      name: 'pools-ledger-debit-type',
      service: 'pools',
      requirements: ['POOLS-LEDGER-BUY-DEBIT'],
      description: 'The reservation shows in the ledger as "debit" instead of buy_debit.',
      suite: 'conformance',
    },
    {
      name: 'pools-funding-iban-placeholder',
      service: 'pools',
      requirements: ['POOLS-FUND-IBAN-UNPROVISIONED-NULL'],
      description: 'A partner whose IBAN is not provisioned gets iban "PENDING" instead of null.',
      suite: 'conformance',
    },
    {
      name: 'pools-balance-echoes-kyc',
      service: 'pools',
      requirements: ['POOLS-BAL-NO-ACCESS-ECHO'],
      description: "The balance echoes the partner's KYC and access state (kycStatus, accessState).",
      suite: 'conformance',
    },
    {
      name: 'pools-ledger-cross-partner',
      service: 'pools',
      requirements: ['POOLS-LEDGER-PARTNER-SCOPED'],
      description: "GET /pools/ledger lists every partner's balance movements.",
      suite: 'conformance',
    },
    {
      name: 'pools-ledger-cursor-repeats',
      service: 'pools',
      requirements: ['POOLS-LEDGER-CURSOR'],
      description: 'The ledger page after a cursor starts with the cursor entry again.',
      suite: 'conformance',
    },
    {
      name: 'pools-ledger-payins-cross-partner',
      service: 'pools',
      requirements: ['POOLS-LEDGER-PARTNER-SCOPED'],
      description: "GET /pools/ledger lists every partner's pay-ins (payin_credit entries, which name no trade) beside the partner's own movements.",
      suite: 'conformance',
    },
    {
      name: 'pools-ledger-cursor-ignored',
      service: 'pools',
      requirements: ['POOLS-LEDGER-CURSOR'],
      description: 'GET /pools/ledger takes the cursor without error but ignores it: every page is page one again.',
      suite: 'conformance',
    },
    {
      name: 'pools-payin-credit-type',
      service: 'pools',
      requirements: ['POOLS-LEDGER-PAYIN-CREDIT'],
      description: 'Pay-ins show in the ledger as "deposit" instead of payin_credit.',
      suite: 'conformance',
    },
    {
      name: 'pools-ledger-debit-anonymous-mistyped',
      service: 'pools',
      requirements: ['POOLS-LEDGER-BUY-DEBIT'],
      description: 'The reservation shows in the ledger as "debit", an entry that names neither the trade nor its quote.',
      suite: 'conformance',
    },
    {
      name: 'pools-ledger-refund-anonymous-twice',
      service: 'pools',
      requirements: ['POOLS-LEDGER-BUY-REFUND'],
      description: 'A returned trade shows in the ledger as two buy_refund entries that name neither the trade nor its quote.',
      suite: 'conformance',
    },
  ],
  register(router, world) {
    const f = world.faults;

    router.on('GET', '/pools/:id/balance', (req) => {
      const { caller, pool } = world.authEntitled(req, req.params.id!);
      const st = world.state(caller);
      const p = caller.partner;
      // Sequence fault: the read posts every pending reservation (transact.ts draws again for a posted trade).
      if (f.has('seq-pools-other-key-transact-draws-again')) for (const t of world.tradeByQuote.values()) postedByBalanceRead.add(t);
      let balance: unknown = p.balanceGate ? world.money(format(poolScopedBalance(world, st, pool.id, cachedBalance(world, st)), 2)) : null;
      if (!p.balanceGate && f.has('pools-balance-gate-off-zero')) balance = '0.00';
      if (typeof balance === 'string' && f.has('pools-balance-as-number')) balance = Number(balance);
      return {
        status: 200,
        body: {
          poolId: pool.id,
          pair: world.pair(pool),
          tier: p.tier ?? 'standard',
          available: unavailableReason(world, caller, pool) === null,
          allowedPools: f.has('pools-entitled-set-lost') ? [] : (p.allowedPools ?? []),
          balance,
          ...(f.has('pools-balance-echoes-kyc') ? { kycStatus: 'approved', accessState: 'active' } : {}),
          // Reading (reference.poolsAdditiveFields): additive fields whose keys are access words, holding no access state.
          ...(world.profile.reference?.poolsAdditiveFields ? { autoTopUp: { enabled: false }, statements: { access: 'download' } } : {}),
        },
      };
    });

    router.on('GET', '/pools/funding', (req) => {
      const caller = world.auth(req);
      const currency = req.query.get('currency') ?? (f.has('pools-funding-default-currency-required') ? null : 'EUR');
      if (currency === null) throw new HttpError(400, 'currency is required.', 'parameter_missing');
      if (currency !== 'EUR' && !f.has('pools-funding-any-currency')) throw new HttpError(400, 'Funding is available in EUR only.', 'unsupported_currency');
      if (!caller.partner.balanceGate && !f.has('pools-funding-gate-off-200'))
        throw new HttpError(404, 'Funding is not available: the balance gate is off for this partner.', 'funding_not_available');
      const h = createHash('sha256').update(`funding:${caller.partner.name}`).digest('hex');
      // The operator has not provisioned every partner's virtual IBAN (profile ibanProvisioned: false; reading
      // pools.funding.iban 'null', no partner's yet).
      const unprovisioned = caller.partner.ibanProvisioned === false || choiceOf(world.profile, 'pools.funding.iban') === 'null';
      const iban = unprovisioned
        ? f.has('pools-funding-iban-placeholder')
          ? 'PENDING'
          : null
        : `DE89${BigInt(`0x${h.slice(0, 16)}`)
            .toString()
            .padStart(18, '0')
            .slice(0, 18)}`;
      const reference = `RMP-${h.slice(0, 10).toUpperCase()}`;
      const text = 'Send a SEPA credit transfer in EUR to the IBAN with the reference in the remittance field.';
      const body: Record<string, unknown> = {
        currency,
        iban,
        reference,
        // Reading (pools.funding.instructions 'object'): the instructions as an object, not a string.
        instructions:
          choiceOf(world.profile, 'pools.funding.instructions') === 'object' ? { method: 'sepa_credit_transfer', remittance: reference, text } : text,
        // Reading (reference.poolsAdditiveFields): the payment scheme that funds the balance, under a generic name.
        ...(world.profile.reference?.poolsAdditiveFields ? { provider: 'sepa_credit_transfer' } : {}),
      };
      if (f.has('pools-funding-missing-reference')) delete body.reference;
      return { status: 200, body };
    });

    // Query and shape not shown; chosen: the trades list's conventions (limit 1–100, cursor = entry id, newest first).
    // Reading (reference.ledgerPaging 'after', the second world): the cursor is ?after= and the page { entries, next }.
    const after = world.profile.reference?.ledgerPaging === 'after';
    router.on('GET', '/pools/ledger', (req) => {
      const caller = world.auth(req);
      const rawLimit = req.query.get('limit');
      const limit = rawLimit === null ? 50 : /^\d+$/.test(rawLimit) ? Number(rawLimit) : NaN;
      if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new HttpError(400, 'limit must be an integer from 1 to 100.', 'invalid_limit');
      const cursor = req.query.get(after ? 'after' : 'cursor');
      if (cursor !== null && !LEDGER_CURSOR.test(cursor))
        throw new HttpError(400, 'cursor is malformed: pass nextCursor from the previous page.', 'invalid_cursor');
      const all = ledgerOf(world, caller).sort((a, b) => b.seq - a.seq);
      let start = 0;
      // Fault pools-ledger-cursor-ignored: a well-formed cursor is taken and ignored (page one again).
      if (cursor !== null && !f.has('pools-ledger-cursor-ignored')) {
        const i = all.findIndex((e) => e.id === cursor);
        start = i === -1 ? all.length : f.has('pools-ledger-cursor-repeats') ? i : i + 1;
      }
      start = ledgerPageStart(world, world.state(caller), cursor, start);
      const rest = all.slice(start);
      const page = rest.slice(0, limit);
      const hasMore = rest.length > limit;
      const data = page.flatMap((e) => ledgerView(world, e));
      const next = hasMore ? page[page.length - 1]!.id : null;
      return { status: 200, body: after ? { entries: data, next } : { data, nextCursor: next, hasMore } };
    });
  },
};

/** The caller's ledger (the cross-partner faults mix in every partner's entries, or their pay-ins, of the same environment). */
function ledgerOf(world: PoolsWorld, caller: Caller): LedgerEntry[] {
  const own = world.state(caller).ledger;
  const cross = world.faults.has('pools-ledger-cross-partner');
  if (!cross && !world.faults.has('pools-ledger-payins-cross-partner')) return [...own];
  const others = (world.profile.pools?.partners ?? [])
    .filter((partner) => partner.name !== caller.partner.name)
    .flatMap((partner) => world.state({ partner, mode: caller.mode }).ledger)
    .filter((e) => cross || e.type === 'payin_credit');
  return [...own, ...others];
}

/** One ledger entry as listed (the typing and anonymity faults applied). */
function ledgerView(world: PoolsWorld, e: LedgerEntry): Record<string, unknown>[] {
  const f = world.faults;
  // Faults: a debit booked anonymously (no trade ids) and mistyped; a refund booked anonymously, twice.
  const lean = choiceOf(world.profile, 'pools.ledger.fields') === 'lean';
  const anonymous =
    (e.type === 'buy_debit' && f.has('pools-ledger-debit-anonymous-mistyped')) || (e.type === 'buy_refund' && f.has('pools-ledger-refund-anonymous-twice'));
  const view = {
    id: e.id,
    type:
      e.type === 'buy_debit' && (f.has('pools-ledger-debit-type') || f.has('pools-ledger-debit-anonymous-mistyped'))
        ? 'debit'
        : e.type === 'payin_credit' && f.has('pools-payin-credit-type')
          ? 'deposit'
          : e.type,
    // Reading (pools.ledger.fields 'lean'): no currency, balanceAfter or quoteId.
    ...(lean ? {} : { currency: e.currency }),
    amount: world.money(e.amount),
    ...(lean ? {} : { balanceAfter: world.money(e.balanceAfter) }),
    transactId: anonymous ? null : e.transactId,
    ...(lean ? {} : { quoteId: anonymous ? null : e.quoteId }),
    createdAt: world.iso(e.createdAtMs),
  };
  return e.type === 'buy_refund' && f.has('pools-ledger-refund-anonymous-twice') ? [view, { ...view, id: `${e.id}b` }] : [view];
}
