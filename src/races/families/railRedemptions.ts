// Rails: one signed quote redeemed by requests sent at once — two pay-outs under two Idempotency-Keys, two pay-ins,
// or the same pay-out (or pay-in) three times under one key and body. A quote is single use: in a serial order the
// first redemption takes it and the others are refused 409 (another key) or answered the original (the same key and
// body). A redemption that checks the quote active and consumes it a round trip later lets two through. After the
// burst each request is sent once more, one after another: a replay of the key that redeemed answers its pay-out,
// any other is refused.
import type { RequirementId } from '../../model/catalogue/index.js';
import { same } from '../../model/relations.js';
import { RAIL_PAY_OUT_RELATIONS } from '../../model/schemas/gate/rails.js';
import { fillDeep } from '../../needs/support/triggers.js';
import {
  defineFamily,
  familyFile,
  type AfterRead,
  type AnswerRule,
  type BurstRequest,
  type RaceFamily,
  type RaceObjects,
  type RoundContext,
} from '../family.js';
import type { RaceSide } from '../side.js';
import { lockQuote, makeSession } from './gateSteps.js';

type Kind = 'pay_out' | 'pay_in';
type Objects = RaceObjects & { session: string; quotes: string[]; bodies: Record<string, unknown>[] };

const PATHS: Record<Kind, string> = { pay_out: '/rails/pay_outs', pay_in: '/rails/pay_ins' };

/** A rail's body redeeming `quote` of `session`: the pay-out's documented one, the pay-in's from the profile's template (not shown). */
export function railBody(side: RaceSide, kind: Kind, session: string, quote: string): Record<string, unknown> {
  if (kind === 'pay_out') return { gate_session_id: session, quote_id: quote };
  const tpl = side.profile.gate.triggers.payInBody;
  if (!tpl) throw new Error(`the ${side.name} declares no gate.triggers.payInBody`);
  return fillDeep(tpl, { quoteId: quote, sessionId: session }) as Record<string, unknown>;
}

/** A session and the signed quotes of its side (pay-outs off_ramp, pay-ins on_ramp) the burst redeems. */
export async function railSetup(side: RaceSide, round: RoundContext, kind: Kind, quotes: number, session: Record<string, unknown> = {}): Promise<Objects> {
  const id = await makeSession(side, round, session);
  const locked: string[] = [];
  for (let i = 0; i < quotes; i++) locked.push(await lockQuote(side, id, kind === 'pay_out' ? 'off_ramp' : 'on_ramp'));
  return {
    refs: { session: id, ...Object.fromEntries(locked.map((q, i) => [`quote#${i + 1}`, q])) },
    session: id,
    quotes: locked,
    bodies: locked.map((q) => railBody(side, kind, id, q)),
  };
}

export function ruleOf(kind: Kind, consumed: RequirementId, replay?: RequirementId): AnswerRule {
  const ok: RequirementId = replay ?? (kind === 'pay_out' ? 'GATE-RAIL-PAYOUT-201' : 'GATE-RAIL-PAYIN-REDEEMS');
  return {
    outcome: { requirement: { '2xx': ok, 409: consumed } },
    // A pay-in's fields are not shown: its outcome alone; a pay-out's by its relations (the id by the pay-out it names).
    ...(kind === 'pay_out'
      ? { relations: { ...RAIL_PAY_OUT_RELATIONS, fields: { ...RAIL_PAY_OUT_RELATIONS.fields, account_blocked: same('GATE-RAIL-ACCOUNT-BLOCKED') } } }
      : {}),
    ...(replay ? { requirementOf: { id: replay } } : {}),
  };
}

/** Each request of the burst once more, one after another (a replay of its key). */
export async function resend(side: RaceSide, burst: readonly BurstRequest[], rule: AnswerRule): Promise<AfterRead[]> {
  const out: AfterRead[] = [];
  for (const [i, b] of burst.entries()) {
    const exchange = await side.send(`${b.label} once more, after the burst`, b.service, { ...b.request, retry: false });
    out.push({ label: `request ${i + 1} once more`, exchange, rule });
  }
  return out;
}

function redemption(opts: { id: string; kind: Kind; sameKey: boolean; requirement: RequirementId; needs: RaceFamily['needs'] }): RaceFamily {
  const { kind, sameKey } = opts;
  const rule = ruleOf(kind, sameKey ? opts.requirement : 'GATE-QUOTE-CONSUMED-409', sameKey ? opts.requirement : undefined);
  const what = kind === 'pay_out' ? 'pay-out' : 'pay-in';
  const n = sameKey ? 3 : 2;
  const burstOf = (o: Objects, round: RoundContext): BurstRequest[] =>
    Array.from({ length: n }, (_, i) => ({
      service: 'gate' as const,
      label: `POST ${PATHS[kind]} (${sameKey ? `the one key, send ${i + 1}` : `key ${i + 1}`})`,
      request: { method: 'POST' as const, path: PATHS[kind], body: o.bodies[0]!, idempotencyKey: round.keys[sameKey ? 0 : i]! },
    }));
  return defineFamily<Objects>({
    id: opts.id,
    file: familyFile(import.meta.url),
    name: sameKey
      ? `races, rails: one ${what} key and body sent three times at once redeems the quote once, each answer the original`
      : `races, rails: two ${what}s of one signed quote at once (two keys) redeem it once, the other refused 409`,
    service: 'gate',
    requirements: [opts.requirement],
    partner: { gate: 'gateRails' },
    needs: opts.needs,
    cost: { write10: 1, write30: 2 + 2 * n },
    setup: (side, round) => railSetup(side, round, kind, 1),
    burst: burstOf,
    rule: () => rule,
    after: (side, o, round) => resend(side, burstOf(o, round), rule),
  });
}

export const payOutsOneQuote = redemption({
  id: 'payouts-one-quote',
  kind: 'pay_out',
  sameKey: false,
  requirement: 'GATE-QUOTE-CONSUMED-409',
  needs: ['gateSignedQuote'],
});
export const payInsOneQuote = redemption({
  id: 'payins-one-quote',
  kind: 'pay_in',
  sameKey: false,
  requirement: 'GATE-QUOTE-CONSUMED-409',
  needs: ['gateSignedQuote', 'gatePayIn'],
});
export const payOutsSameKey = redemption({
  id: 'payouts-same-key',
  kind: 'pay_out',
  sameKey: true,
  requirement: 'GATE-RAIL-PAYOUT-IDEMPOTENT-REPLAY',
  needs: ['gateSignedQuote'],
});
export const payInsSameKey = redemption({
  id: 'payins-same-key',
  kind: 'pay_in',
  sameKey: true,
  requirement: 'GATE-RAIL-PAYIN-IDEMPOTENT-REPLAY',
  needs: ['gateSignedQuote', 'gatePayIn'],
});
