// The per-user cumulative rail volume cap (Rail pay-out: account_blocked). The
// cap's value is not shown: the profile declares it for a partner. A fresh user
// (a user_reference of its own: the user is derived from the session) takes
// pay-outs of 60 % of the cap each, so the first stays under it and the second
// goes past; account_blocked must be absent, then true on the rail that went
// past, and the user's next rail is refused. Which volume counts (the pay-out
// amounts or the sessions' bound amounts) is not shown: where the two readings
// disagree about a rail, either answer passes and the answer is recorded.
import { randomUUID } from 'node:crypto';
import type { LockSignedQuote } from '../../src/needs/gate/signedQuote.js';
import type { RailVolumeCapActor } from '../../src/needs/gate/railVolumeCap.js';
import { pick, sendWith } from '../../src/needs/support/triggers.js';
import type { CheckTools, RequirementId } from '../../src/runner/check.js';
import { decAdd, decCmp, decMul, decRound } from '../pools/pools.js';
import { createSession } from './sessions.js';
import { expectPaidOut, lockQuoteFor, payOut } from './rails.js';

/** Pay-outs of 60 % of the cap each: the second goes past it by construction (unless fees exceed a sixth). */
const PAY_OUTS = 2;

export async function expectAccountBlocked(t: CheckTools, actor: RailVolumeCapActor, lock: LockSignedQuote, R: RequirementId): Promise<void> {
  const user = `rampart-cap-${randomUUID()}`;
  const amount = decRound(decMul(actor.cap, '0.6'), 2, 'down');
  let paid = '0';
  let bound = '0';
  for (let i = 1; i <= PAY_OUTS; i++) {
    const { session } = await createSession(t, actor, R, { amount, user_reference: user });
    const q = await lockQuoteFor(t, actor, lock, session.id, 'off_ramp');
    const ex = await payOut(actor, { gate_session_id: q.sessionId, quote_id: q.quoteId });
    const p = expectPaidOut(t, ex, q, R);
    const nextPaid = decAdd(paid, p.amount);
    const nextBound = decAdd(bound, amount);
    const byPaid = decCmp(nextPaid, actor.cap);
    const byBound = decCmp(nextBound, actor.cap);
    const flag = (ex.json as { account_blocked?: unknown }).account_blocked;
    if (byPaid === byBound && byPaid !== 0) {
      const past = byPaid > 0;
      t.expect.equal(
        flag,
        past ? true : undefined,
        past
          ? `the pay-out that takes the user to ${nextPaid} (cap ${actor.cap}) carries account_blocked true`
          : `account_blocked is absent while the user stays under the cap (${nextPaid} of ${actor.cap})`,
        {
          requirement: R,
          exchange: ex,
        },
      );
    } else {
      // The readings disagree (or the total sits exactly at the cap): both answers are documented readings.
      t.expect.that(flag === undefined || flag === true, 'account_blocked, when present, is true', { requirement: R, actual: flag, exchange: ex });
      t.observe(
        'gate-rail-volume-reading',
        { paid: nextPaid, bound: nextBound, cap: actor.cap, account_blocked: flag ?? null },
        'which volume the cap counts is not shown',
      );
    }
    paid = nextPaid;
    bound = nextBound;
    if (flag === true) return expectNextRailRefused(t, actor, user, amount, R);
  }
  t.unverified(
    `${PAY_OUTS} pay-outs (${paid} paid, ${bound} bound) did not take the user past the declared cap ${actor.cap} under both readings: the blocking rail was not reached`,
  );
}

/** The blocked user's next rail: refused (4xx) at the quote lock or at the pay-out. */
async function expectNextRailRefused(t: CheckTools, actor: RailVolumeCapActor, user: string, amount: string, R: RequirementId): Promise<void> {
  const { session } = await createSession(t, actor, R, { amount, user_reference: user });
  // Sent raw: a lock refused for the blocked account is one documented way of refusing its rails.
  const tpl = t.profile.gate.triggers.createSignedQuote!;
  const locked = await sendWith(actor.client, tpl, { sessionId: session.id, side: 'off_ramp', partner: actor.partner.name });
  if (locked.exchange.status >= 400 && locked.exchange.status < 500) {
    t.observe('gate-blocked-account-refused-at', `quote lock ${locked.exchange.status}`);
    return;
  }
  const quoteId = pick(locked.exchange.json, tpl.extract?.id ?? 'id');
  t.expect.that(typeof quoteId === 'string' && quoteId.length > 0, "the blocked user's quote lock either is refused or names a quote", {
    requirement: R,
    exchange: locked.exchange,
  });
  const ex = await payOut(actor, { gate_session_id: session.id, quote_id: quoteId });
  t.expect.that(ex.status >= 400 && ex.status < 500, "the blocked user's next pay-out is refused (4xx): the account is blocked for future rails", {
    requirement: R,
    actual: `${ex.status} ${ex.bodyText.slice(0, 160)}`,
    exchange: ex,
  });
  t.observe('gate-blocked-account-refused-at', `pay-out ${ex.status} ${String((ex.json as { code?: unknown } | undefined)?.code ?? '')}`);
}
