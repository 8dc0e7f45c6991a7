// The records a Gate rail's redemption made, explored: a pay-out or pay-in replayed under its key (the original
// answer, whatever happened to the quote since), a pay-out's key sent with another body (409), and the record read
// back as it was made. rails.ts makes them (locks, redemptions, the sandbox's expiry).
import type { Exchange } from '../../../client/types.js';
import type { RequirementId } from '../../../model/catalogue/index.js';
import { RAIL_PAY_OUT_RELATIONS } from '../../../model/schemas/gate/rails.js';
import { holds, sameAsBefore, sameFields, sameOutcome } from '../../divergence.js';
import { live, type ExploreModel, type RailTwin, type Side, type SignedQuoteTwin } from '../../model.js';
import type { Real } from '../../real.js';
import { ExploreCommand, bodyOf } from '../command.js';

const SIDES: Side[] = ['target', 'oracle'];
const ok = (ex?: Exchange) => !!ex && ex.status >= 200 && ex.status < 300;

/** The pay-outs or pay-ins the sequence redeemed the quote by. */
export const railsOf = (m: Readonly<ExploreModel>, q: SignedQuoteTwin): RailTwin[] => m.rails.filter((x) => x.quote === q.name);

export abstract class OnRail extends ExploreCommand {
  constructor(readonly index: number) {
    super();
  }
  protected rails(m: Readonly<ExploreModel>): RailTwin[] {
    return live(m.rails);
  }
  applies(m: Readonly<ExploreModel>): boolean {
    return m.can.gate && this.rails(m).length > 0;
  }
  protected twin(m: Readonly<ExploreModel>): RailTwin {
    return this.choose(this.rails(m), this.index)!;
  }
  label(m: ExploreModel): string {
    const x = this.twin(m);
    const q = m.signedQuotes.find((y) => y.name === x.quote);
    return `${this.verb} ${x.name} (${q?.name}${q?.expired ? ' expired since' : ''})`;
  }
  protected abstract readonly verb: string;
}

/** The same key and body again: the original answer, whatever happened to the quote since (consumed, expired). */
export async function replayRail(r: Real, x: RailTwin): Promise<void> {
  const rule: RequirementId = x.kind === 'pay_out' ? 'GATE-RAIL-PAYOUT-IDEMPOTENT-REPLAY' : 'GATE-RAIL-PAYIN-IDEMPOTENT-REPLAY';
  const path = x.kind === 'pay_out' ? '/rails/pay_outs' : '/rails/pay_ins';
  const ex = await r.both((side) => r.gate(side).post(path, x.body[side], { idempotencyKey: x.idempotencyKey }));
  sameOutcome(r, ex, { requirement: { '2xx': rule, 409: rule } });
  for (const side of SIDES) {
    holds(r, ex[side].status === x.status[side], rule, () => ({
      what: `the replay of ${x.name} answers its original status on the ${side}`,
      target: side === 'target' ? ex.target.status : '(as before)',
      oracle: side === 'oracle' ? ex.oracle.status : '(as before)',
    }));
    sameAsBefore(r, rule, `the replay of ${x.name} answers the original`, side, x.created[side], bodyOf(ex[side]), ['id', 'amount', 'quote_id'], {
      amount: 'decimal',
    });
  }
}

export class ReplayRail extends OnRail {
  protected readonly verb = 'replay';
  act(m: ExploreModel, r: Real): Promise<void> {
    return replayRail(r, this.twin(m));
  }
}

/**
 * A pay-out's Idempotency-Key with another body (another reference): 409, and it redeems nothing — the key's record
 * keeps the original, so a replay after it still answers the original pay-out (ReplayRail, around it).
 */
export class ConflictRail extends OnRail {
  protected readonly verb = 'send another body under the key of';
  protected rails(m: Readonly<ExploreModel>): RailTwin[] {
    return live(m.rails).filter((x) => x.kind === 'pay_out');
  }
  async act(m: ExploreModel, r: Real): Promise<void> {
    const x = this.twin(m);
    const other = (side: Side) => ({ ...x.body[side], reference: `explore-${r.context.tag}-${m.serial}-other` });
    const ex = await r.both((side) => r.gate(side).post('/rails/pay_outs', other(side), { idempotencyKey: x.idempotencyKey }));
    sameOutcome(r, ex, { requirement: { 409: 'GATE-ERR-409-CONFLICT', '2xx': 'GATE-ERR-409-CONFLICT' } });
  }
}

/** GET of a pay-out or pay-in the sequence made: the record it answered at creation. */
export async function readRail(m: ExploreModel, r: Real, x: RailTwin): Promise<void> {
  if (!x.id.target || !x.id.oracle) return;
  const rule: RequirementId = x.kind === 'pay_out' ? 'GATE-RAIL-PAYOUT-READ' : 'GATE-RAIL-PAYIN-READ';
  const path = x.kind === 'pay_out' ? '/rails/pay_outs' : '/rails/pay_ins';
  const ex = await r.both((side) => r.gate(side).get(`${path}/${encodeURIComponent(x.id[side])}`));
  sameOutcome(r, ex, { requirement: { '2xx': rule } });
  if (!ok(ex.oracle)) return;
  const b = { target: bodyOf(ex.target), oracle: bodyOf(ex.oracle) };
  if (x.kind === 'pay_out')
    sameFields(r, m, RAIL_PAY_OUT_RELATIONS, b, { what: `${x.name} read`, requirementOf: { id: rule, quote_id: rule, gate_session_id: rule } });
  for (const side of SIDES)
    sameAsBefore(
      r,
      rule,
      `${x.name} reads as it was made`,
      side,
      x.created[side],
      b[side],
      x.kind === 'pay_out' ? ['id', 'amount', 'currency', 'quote_id', 'gate_session_id', 'reference'] : ['id'],
      { amount: 'decimal' },
    );
}

export class ReadRail extends OnRail {
  protected readonly verb = 'read';
  protected rails(m: Readonly<ExploreModel>): RailTwin[] {
    return live(m.rails).filter((x) => !!x.id.target && !!x.id.oracle);
  }
  act(m: ExploreModel, r: Real): Promise<void> {
    return readRail(m, r, this.twin(m));
  }
}
