// `rampart doctor`: before a partner spends an hour, check that the profile is
// right about its target — each base URL answers as the API, each key answers
// as its declared kind and mode, each trigger does what it says (dry-run where
// that is safe), the target reaches rampart's webhook receiver — and say, per
// role or trigger, what it unlocks and what to add, and how many requirements
// the profile can verify. Every Gate request is paced like a run's and the
// doctor's own traffic is spread over the partners, so it never trips a window.
import { clockReport } from '../client/targetClock.js';
import type { Profile } from '../profile/schema.js';
import { checkBases } from './bases.js';
import { DoctorContext, type DoctorOptions, type DoctorRow } from './context.js';
import { Coverage, loadChecks, needRows } from './coverage.js';
import { applyAll } from './edits.js';
import { checkKeys } from './keys.js';
import { checkReceiver } from './receiver.js';
import { checkTriggers } from './triggers.js';
import type { DoctorReport } from './format.js';
import { recordRoundTrips } from '../plan/roundTrip.js';

export type { DoctorOptions, DoctorRow, RowStatus } from './context.js';
export { formatDoctor, type DoctorReport } from './format.js';

export async function runDoctor(profile: Profile, opts: DoctorOptions = {}): Promise<DoctorReport> {
  const ctx = new DoctorContext(profile, opts);
  const cov = new Coverage(await loadChecks(), ctx.depth);
  await checkBases(ctx);
  await checkKeys(ctx);
  await checkTriggers(ctx);
  await checkReceiver(ctx);

  // What works: the profile without its broken elements. The count of verifiable requirements is on that.
  const usable = applyAll(
    profile,
    ctx.rows.filter((r) => r.status === 'broken').map((r) => r.without),
  );
  const rows: DoctorRow[] = ctx.rows.map(({ without: _w, with: _x, ...r }, i) => ({ ...r, unlocks: cov.unlocks(profile, ctx.rows[i]!) }));
  for (const r of needRows(profile, usable, cov)) rows.push(r);
  const target = { gate: clockReport(ctx.clocks.gate), pools: clockReport(ctx.clocks.pools) };
  // What `rampart plan` multiplies through the requests that go one after another, for this target.
  recordRoundTrips({
    [profile.gate.baseUrls.sandbox]: target.gate?.roundTrip,
    ...(profile.pools ? { [profile.pools.baseUrls.sandbox]: target.pools?.roundTrip } : {}),
  });
  return {
    profile: profile.name,
    depth: ctx.depth,
    rows,
    usable: !rows.some((r) => r.status === 'broken'),
    verifiable: cov.verifiable(usable),
    target,
  };
}
