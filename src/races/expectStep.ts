// A step before or after a burst that must succeed for the race to be reached (the session its quote is locked on,
// the quote its pay-outs redeem): on the target, an answer the specs do not allow fails the check on the step's own
// rule; on an oracle world it is rampart's own defect (the reference refused what the family sent).
import type { Exchange } from '../client/types.js';
import type { RequirementId } from '../model/catalogue/index.js';
import { CheckFailed, show } from '../runner/expect.js';
import type { RaceSide } from './side.js';

const is2xx = (s: number) => s >= 200 && s < 300;

/** A success (any 2xx: most success statuses are not shown), else the side's failure. */
export function expectOk(side: RaceSide, ex: Exchange, requirement: RequirementId, what: string): Exchange {
  if (is2xx(ex.status)) return ex;
  if (side.name === 'oracle')
    throw new Error(
      `the races oracle refused a step of the race (${what}): ${ex.status} ${ex.bodyText.slice(0, 200)} — a defect of rampart's family, or a profile the oracle cannot take`,
    );
  throw new CheckFailed(`${what}: the step before the burst did not succeed`, {
    requirement,
    expected: '2xx',
    actual: `${ex.status} ${show(ex.json ?? ex.bodyText, 200)}`,
    exchange: ex,
  });
}

/** A field of a success's JSON body, as a string, else the side's failure. */
export function fieldOf(side: RaceSide, ex: Exchange, field: string, requirement: RequirementId, what: string): string {
  const v = (ex.json as Record<string, unknown> | undefined)?.[field];
  if (typeof v === 'string' && v) return v;
  if (side.name === 'oracle') throw new Error(`the races oracle's answer to ${what} has no ${field}: ${ex.bodyText.slice(0, 200)}`);
  throw new CheckFailed(`${what}: the answer carries no ${field}`, {
    requirement,
    expected: `a string ${field}`,
    actual: show(ex.json ?? ex.bodyText, 200),
    exchange: ex,
  });
}
