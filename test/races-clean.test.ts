// rampart races against correct targets gives no finding: the embedded world, the second world (embedded-alt.json:
// other ids, keys, readings, a compressed clock), the dialect world (every open point its second choice) and the
// field world (latency 100 ± 30 ms each way, which spreads a burst's arrivals; its own clock; a lived-in history).
// A few seeds each here; scripts/races-clean-worlds.ts runs twenty a world for the closing note.
import { afterAll, describe, expect, it } from 'vitest';
import { findToxiproxyServer } from '../src/tools/pinned.js';
import type { Profile } from '../src/profile/schema.js';
import { startDialect, startEmbedded } from './support/embedded.js';
import { startFieldWorld } from './support/fieldWorld.js';
import { racesAgainst } from './support/races.js';

const toxiproxy = findToxiproxyServer();
const noToxiproxy = 'missing' in toxiproxy ? toxiproxy.missing : undefined;

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of closers) await c();
});

async function clean(start: () => Promise<{ profile: Profile; close(): Promise<void> }>, seeds: readonly number[]): Promise<void> {
  for (const seed of seeds) {
    const w = await start();
    closers.push(() => w.close());
    const { races, outcome } = await racesAgainst(w.profile, { seed });
    expect(races.findings.map((f) => `${f.family}: ${f.what}`)).toEqual([]);
    // Nothing the world offers is left unjudged: every family ran to a verdict, and passed.
    expect(outcome.checks.filter((c) => c.status !== 'passed').map((c) => `${c.name}: ${c.status} — ${c.reason ?? c.failure?.message}`)).toEqual([]);
  }
}

describe('rampart races against correct targets: no finding', () => {
  it('the embedded world', () => clean(() => startEmbedded(), [1, 2]), 120_000);
  it('the second world (embedded-alt.json)', () => clean(() => startEmbedded({ profileFile: 'fixtures/profiles/embedded-alt.json' }), [3]), 120_000);
  it('the dialect world (every open point its second choice)', () => clean(() => startDialect('everywhere'), [4, 5]), 120_000);
  it.skipIf(!!noToxiproxy)(
    `the field world (100 ± 30 ms each way)${noToxiproxy ? ` (skipped: ${noToxiproxy})` : ''}`,
    () => clean(() => startFieldWorld({ clockOffsetSeconds: 2, history: { sessions: 10, customers: 10, trades: 20, deliveries: 5 } }), [6]),
    240_000,
  );
});
