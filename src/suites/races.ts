// Races: bursts of concurrent documented requests on objects one short sequence made, judged by linearizability
// against the oracle (src/races): some serial order that keeps real time must reproduce every answer and the reads
// after, replayed on fresh oracle worlds the CLI makes (src/cli/oracle.ts oracleWorlds). One check per race family
// (src/races/families), run by the runner like conformance's checks — its needs provided or the family skipped with
// the reason, its requests paced inside the rate windows (a burst granted as one block) on the partners reserved for
// races (reservedFor: "races"), so certify runs it beside the other kinds.
import { randomUUID } from 'node:crypto';
import { EXIT, RunError } from '../exitCodes.js';
import type { LoadedSuite } from '../runner/run.js';
import { runChecks } from '../runner/run.js';
import type { RacesRecord } from '../report/results.js';
import { familyCheck, type RacesRun } from '../races/check.js';
import { Pacer } from '../client/pacer.js';
import { roundsOf } from '../races/rounds.js';
import { isWindow, RACE_FAMILIES, type AnyRaceFamily } from '../races/families/index.js';
import type { SuiteKind, SuiteRunContext } from './kind.js';

/** The families a run takes: --family, else every one of the run's service. */
function familiesOf(ctx: Pick<SuiteRunContext, 'service' | 'raceFamilies'>): AnyRaceFamily[] {
  const all = RACE_FAMILIES.filter((f) => !ctx.service || f.service === ctx.service);
  if (!ctx.raceFamilies?.length) return all;
  return all.filter((f) => ctx.raceFamilies!.includes(f.id));
}

/** One check per family; with --times N, the one family's N bursts each a check of its own (each leases its partner). */
function suitesOf(families: readonly AnyRaceFamily[], run: RacesRun, times?: number): LoadedSuite[] {
  return families.map((f) => ({
    service: f.service,
    section: 'Races',
    file: f.file,
    checks: times ? Array.from({ length: times }, (_, i) => familyCheck(f, run, { burst: i + 1, of: times })) : [familyCheck(f, run)],
  }));
}

export const racesKind: SuiteKind = {
  name: 'races',
  validate(ctx) {
    const unknown = (ctx.raceFamilies ?? []).filter((id) => !RACE_FAMILIES.some((f) => f.id === id));
    if (unknown.length)
      throw new RunError(`--family ${unknown.join(', ')}: no such race family (the families: ${RACE_FAMILIES.map((f) => f.id).join(', ')})`, EXIT.usage);
  },
  async declared(ctx) {
    return RACE_FAMILIES.filter((f) => !ctx.service || f.service === ctx.service).map((f) => ({ name: f.name, file: f.file, requirements: f.requirements }));
  },
  async run(ctx) {
    if (!ctx.raceWorlds) throw new Error('races needs its oracle worlds (the CLI makes them)');
    const families = familiesOf(ctx);
    const seed = ctx.seed !== undefined ? Number(ctx.seed) : Math.floor(Math.random() * 2 ** 31);
    const rounds = roundsOf(ctx.raceBudget, families, ctx.depth, ctx.raceInCertify);
    const record: RacesRecord = {
      seed,
      rounds,
      bursts: 0,
      ordersTried: 0,
      families: {},
      findings: [],
      oracle: "fresh worlds of the embedded reference, started on loopback from the target's profile, one per serial order tried",
    };
    const pacer = ctx.pacer ?? new Pacer({ windowScale: ctx.profile.timing.rateWindowScale, refuseHourWait: ctx.depth === 'quick' });
    const run: RacesRun = {
      worlds: ctx.raceWorlds,
      pacer,
      seed,
      rounds,
      tag: randomUUID().slice(0, 8),
      ...(ctx.profileFile ? { profileFile: ctx.profileFile } : {}),
      ...(ctx.faults?.length ? { faults: ctx.faults } : {}),
      record,
    };
    ctx.log(
      `… races: ${families.length} families, ${ctx.raceTimes ? `${ctx.raceTimes} bursts at once` : `${rounds} bursts each`}, seed ${seed} (rampart races --seed ${seed} replays the orders of sending)`,
    );
    const out = await runChecks({
      profile: ctx.profile,
      suites: suitesOf(families, run, ctx.raceTimes),
      kind: 'races',
      depth: ctx.depth,
      grep: ctx.grep,
      progress: ctx.progress,
      concurrency: ctx.concurrency,
      signal: ctx.signal,
      done: ctx.done,
      onResult: ctx.onResult,
      onExchange: ctx.onExchange,
      reproduce: ctx.reproduce,
      onOutage: ctx.onOutage,
      onRateLimited: ctx.onRateLimited,
      partners: ctx.partners,
      pacer,
      clocks: ctx.clocks,
      receiver: ctx.receiver,
    });
    for (const c of out.checks) {
      const f = families.find((x) => x.name === c.name);
      if (!f) continue;
      const rec = (record.families[f.id] ??= { service: f.service, requirements: [...f.requirements], status: c.status, rounds: 0, explained: 0, requests: 0 });
      rec.status = c.status;
      if (c.reason) rec.reason = c.reason;
    }
    ctx.log(`races: ${record.bursts} bursts, ${record.ordersTried} serial orders replayed on the oracle, ${record.findings.length} unexplained`);
    const observations = [...out.observations];
    if (ctx.raceTimes) {
      const line = `the finding showed in ${record.findings.length} of ${ctx.raceTimes} bursts`;
      ctx.log(`races replay (${families.map((f) => f.id).join(', ')}): ${line}`);
      observations.push({
        topic: 'races.replay',
        service: families[0]?.service ?? 'gate',
        value: { family: families[0]?.id, bursts: ctx.raceTimes, showed: record.findings.length },
        note: line,
      });
    }
    // A burst past a window was sent past the windows on purpose (unpaced): what the windows force for the run's
    // own paced requests (its spent bound) leaves those out.
    const provoked = (r: { check: string; method: string; path: string }) =>
      families.some((f) => isWindow(f) && r.check.startsWith(f.name) && r.method === f.route.method && r.path === f.route.path);
    const stats = { ...out.stats, requests: out.stats.requests.filter((r) => !provoked(r)) };
    return {
      checks: out.checks,
      observations,
      metrics: {},
      stats,
      races: record,
      ...(out.outage ? { outage: out.outage } : {}),
      ...(out.rateLimited ? { rateLimited: out.rateLimited } : {}),
    };
  },
};
