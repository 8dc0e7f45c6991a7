// The per-user cumulative rail volume cap (Rail pay-out: account_blocked). The
// cap's value is not shown: the profile declares it for a partner. "The user is
// derived from the session" — how is not shown — so the user is pinned by the
// one thing every derivation agrees on: rails of one session are one user's.
// A session bound to 60 % of the cap takes a pay-out, then a second quote and
// pay-out: the second goes past the cap, must carry account_blocked true, and
// the user's next rail is refused. A target that lets a session take only one
// rail is tried with a second session of the same user_reference (one reading
// of the derivation): there a rail that does not block is observed, and the
// rule left unverified, never failed. Which volume counts (the pay-out amounts
// or the sessions' bound amounts) is not shown either: where the two readings
// disagree about a rail, either answer passes and the answer is recorded.
import { randomUUID } from 'node:crypto';
import type { Exchange } from '../../src/client/types.js';
import type { LockSignedQuote } from '../../src/needs/gate/signedQuote.js';
import type { RailVolumeCapActor } from '../../src/needs/gate/railVolumeCap.js';
import { pick, sendWith } from '../../src/needs/support/triggers.js';
import type { CheckTools, RequirementId } from '../../src/runner/check.js';
import { decAdd, decCmp, decMul, decRound } from '../pools/pools.js';
import { createSession } from './sessions.js';
import { expectPaidOut, lockQuoteFor, payOut, shownTerms, type LockedQuote } from './rails.js';

const isRefusal = (ex: Exchange) => ex.status >= 400 && ex.status < 500;

export async function expectAccountBlocked(t: CheckTools, actor: RailVolumeCapActor, lock: LockSignedQuote, R: RequirementId): Promise<void> {
  const user = `rampart-cap-${randomUUID()}`;
  const amount = decRound(decMul(actor.cap, '0.6'), 2, 'down');
  const { session } = await createSession(t, actor, R, { amount, user_reference: user });
  let paid = '0';
  let bound = '0';

  /**
   * Judge account_blocked on a pay-out of this user: `sameUser` when the rails so far are certainly one user's
   * (one session), else the user_reference reading is on trial. Returns the flag.
   */
  const judge = (ex: Exchange, payOutAmount: string, sameUser: boolean): boolean => {
    paid = decAdd(paid, payOutAmount);
    bound = decAdd(bound, amount);
    const byPaid = decCmp(paid, actor.cap);
    const byBound = decCmp(bound, actor.cap);
    const flag = (ex.json as { account_blocked?: unknown }).account_blocked;
    t.expect.that(flag === undefined || flag === true, 'account_blocked, when present, is true', { requirement: R, actual: flag, exchange: ex });
    const seen = { paid, bound, cap: actor.cap, account_blocked: flag ?? null };
    if (byPaid !== byBound || byPaid === 0) t.observe('gate-rail-volume-reading', seen, 'which volume the cap counts is not shown');
    else if (byPaid < 0) {
      // Under the cap by this user's rails here; a user derived more widely (earlier rails count) may be past it already.
      if (flag === true)
        t.observe('gate-rail-user-derivation', seen, 'blocked before these rails took the user past the cap: the user is derived more widely (not shown)');
    } else if (sameUser)
      t.expect.equal(flag, true, `the pay-out that takes the session's user to ${paid} (cap ${actor.cap}) carries account_blocked true`, {
        requirement: R,
        exchange: ex,
      });
    else if (flag !== true)
      t.observe(
        'gate-rail-user-derivation',
        seen,
        'a second session of the same user_reference did not count towards the cap: the user is derived otherwise (not shown)',
      );
    return flag === true;
  };

  const first = await lockQuoteFor(t, actor, lock, session.id, 'off_ramp');
  const firstEx = await payOut(actor, { gate_session_id: session.id, quote_id: first.quoteId });
  if (judge(firstEx, (await expectPaidOut(t, firstEx, first, R)).amount, true)) return expectNextRailRefused(t, actor, session.id, R);

  // A second rail on the same session: the same user under any derivation from the session.
  const again = await secondRail(t, actor, session.id);
  if (again) {
    if (judge(again.ex, (await expectPaidOut(t, again.ex, again.q, R)).amount, true)) return expectNextRailRefused(t, actor, session.id, R);
  } else {
    t.observe(
      'gate-rail-second-on-session',
      'refused',
      'whether a session takes more than one rail is not shown: a second session of the same user_reference instead',
    );
    const { session: other } = await createSession(t, actor, R, { amount, user_reference: user });
    const q = await lockQuoteFor(t, actor, lock, other.id, 'off_ramp');
    const ex = await payOut(actor, { gate_session_id: other.id, quote_id: q.quoteId });
    if (judge(ex, (await expectPaidOut(t, ex, q, R)).amount, false)) {
      // Blocked across sessions by user_reference: that is how this target derives the user, so a third session of it is the same user.
      const { session: third } = await createSession(t, actor, R, { amount, user_reference: user });
      return expectNextRailRefused(t, actor, third.id, R);
    }
  }
  t.unverified(
    `the rails (${paid} paid, ${bound} bound) did not take the user past the declared cap ${actor.cap} under both volume readings, or the user is derived from the session in a way not shown: the blocking rail was not reached`,
  );
}

/** The profile's quote lock for `sessionId`, sent raw: a refusal is an answer here, not a failed trigger. */
async function rawLock(t: CheckTools, actor: RailVolumeCapActor, sessionId: string): Promise<{ ex: Exchange; q?: LockedQuote }> {
  const tpl = t.profile.gate.triggers.createSignedQuote!;
  const { exchange: ex } = await sendWith(actor.client, tpl, { sessionId, side: 'off_ramp', partner: actor.partner.name });
  const id = pick(ex.json, tpl.extract?.id ?? 'id');
  const fiat = pick(ex.json, tpl.extract?.fiat_pay_or_receive ?? 'fiat_pay_or_receive');
  if (ex.status < 200 || ex.status >= 300 || typeof id !== 'string' || !id) return { ex };
  return {
    ex,
    q: {
      sessionId,
      quoteId: id,
      fiat: typeof fiat === 'string' ? fiat : String(fiat),
      lockedAt: ex.startedAt + ex.durationMs,
      lockSentAt: ex.startedAt,
      shown: shownTerms(ex.json),
    },
  };
}

/** A second quote locked and paid out on the session; undefined when the target refuses either (one rail per session: not shown). */
async function secondRail(t: CheckTools, actor: RailVolumeCapActor, sessionId: string): Promise<{ q: LockedQuote; ex: Exchange } | undefined> {
  const { q } = await rawLock(t, actor, sessionId);
  if (!q) return undefined;
  const ex = await payOut(actor, { gate_session_id: sessionId, quote_id: q.quoteId });
  return isRefusal(ex) ? undefined : { q, ex };
}

/** The blocked user's next rail, on a session that is certainly that user's: refused (4xx) at the quote lock or at the pay-out. */
async function expectNextRailRefused(t: CheckTools, actor: RailVolumeCapActor, sessionId: string, R: RequirementId): Promise<void> {
  // A lock refused for the blocked account is one documented way of refusing its rails.
  const { ex: locked, q } = await rawLock(t, actor, sessionId);
  if (isRefusal(locked)) {
    t.observe('gate-blocked-account-refused-at', `quote lock ${locked.status}`);
    return;
  }
  t.expect.that(q !== undefined, "the blocked user's quote lock either is refused or names a quote", { requirement: R, exchange: locked });
  const ex = await payOut(actor, { gate_session_id: sessionId, quote_id: q.quoteId });
  t.expect.that(isRefusal(ex), "the blocked user's next pay-out is refused (4xx): the account is blocked for future rails", {
    requirement: R,
    actual: `${ex.status} ${ex.bodyText.slice(0, 160)}`,
    exchange: ex,
  });
  t.observe('gate-blocked-account-refused-at', `pay-out ${ex.status} ${String((ex.json as { code?: unknown } | undefined)?.code ?? '')}`);
}
