// Test support: `rampart races` against a world already running (the embedded target, a dialect world, the field
// world), in process, through the same kind the CLI runs — its oracle worlds made from the world's profile the way
// the CLI makes them (src/cli/oracle.ts oracleWorlds).
import { mkdtempSync } from 'node:fs';
import { Writable } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pacer } from '../../src/client/pacer.js';
import { newTargetClocks } from '../../src/client/targetClock.js';
import { oracleWorlds } from '../../src/cli/oracle.js';
import type { Profile } from '../../src/profile/schema.js';
import type { RacesRecord } from '../../src/report/results.js';
import { createProgress } from '../../src/runner/progress.js';
import type { SuiteOutcome } from '../../src/suites/kind.js';
import { racesKind } from '../../src/suites/races.js';

export interface RacesRun {
  outcome: SuiteOutcome;
  races: RacesRecord;
}

export async function racesAgainst(
  profile: Profile,
  opts: {
    seed?: number;
    families?: string[];
    service?: 'gate' | 'pools';
    depth?: 'quick' | 'full';
    budget?: number;
    times?: number;
    faults?: string[];
    log?: (l: string) => void;
  } = {},
): Promise<RacesRun> {
  const outcome = await racesKind.run({
    profile,
    depth: opts.depth ?? 'quick',
    ...(opts.service ? { service: opts.service } : {}),
    // Each check's line goes nowhere: the caller prints what it wants of the record.
    progress: createProgress({ live: false, quiet: true, out: new Writable({ write: (_c, _e, done) => done() }) as NodeJS.WriteStream }),
    signal: new AbortController().signal,
    runDir: mkdtempSync(join(tmpdir(), 'rampart-races-')),
    pacer: new Pacer({ windowScale: profile.timing.rateWindowScale, refuseHourWait: true }),
    clocks: newTargetClocks(),
    raceWorlds: oracleWorlds(profile),
    ...(opts.seed !== undefined ? { seed: String(opts.seed) } : {}),
    ...(opts.families ? { raceFamilies: opts.families } : {}),
    ...(opts.budget !== undefined ? { raceBudget: opts.budget } : {}),
    ...(opts.times !== undefined ? { raceTimes: opts.times } : {}),
    ...(opts.faults ? { faults: opts.faults } : {}),
    log: opts.log ?? (() => undefined),
  });
  return { outcome, races: outcome.races! };
}
