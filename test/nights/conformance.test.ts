// Nights of `rampart conformance --service pools` into one store, through the real CLI: five runs — clean, with a
// fault, clean, with it, clean — then `rampart history --json` prints the runs oldest first (runId, verdict) and each
// requirement's statuses in run order with its flag: the fault's requirements intermittent, none that passed every
// run, and the fault's failure new on the second run (intermittent on the fourth). The same with
// `--history postgres://…` on every command (a real PostgreSQL; skipped visibly where there is none). And the seeded
// some-runs fault over five runs of its own: its requirement flagged, the others not. Every run directory holds a
// ctrf.json valid by the CTRF reference package.
import { readdirSync, readFileSync, mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validate } from 'ctrf';
import { afterAll, describe, expect, it } from 'vitest';
import type { HistoryView } from '../../src/history/view.js';
import { SOME_RUNS, startBreaks } from '../../src/reference/nightFaults.js';
import { cliIn, type CliRun } from '../support/cli.js';
import { freshDatabase, postgresServer } from '../support/postgres.js';

const tmp = mkdtempSync(join(tmpdir(), 'rampart-nights-'));
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups) await c();
  rmSync(tmp, { recursive: true, force: true });
});
const cli = cliIn(tmp);
const FAULT = 'pools-default-network-ethereum';
const BROKEN = 'POOLS-QUOTE-NETWORK-DEFAULT-TRON';
const pg = postgresServer();

/** Runs the commands one after another (each a night), timing them. */
async function nights(args: string[][], env: Record<string, string>[] = []): Promise<{ runs: CliRun[]; seconds: number[] }> {
  const runs: CliRun[] = [];
  const seconds: number[] = [];
  for (const [i, a] of args.entries()) {
    const t0 = Date.now();
    // The child takes the environment when it is spawned (at once): restored before the series that run beside it spawn theirs.
    const saved = { ...process.env };
    Object.assign(process.env, env[i] ?? {});
    const run = cli(a, 300_000);
    process.env = saved;
    runs.push(await run);
    seconds.push(Math.round((Date.now() - t0) / 100) / 10);
  }
  return { runs, seconds };
}

const history = async (dir: string, extra: string[] = []) => {
  const r = await cli(['history', '--json', '--reports-dir', dir, ...extra]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as HistoryView;
};

function everyCtrfValid(dir: string): number {
  const runs = readdirSync(dir).filter((n) => n !== 'latest' && n !== 'history' && existsSync(join(dir, n, 'results.json')));
  for (const n of runs) expect(validate(JSON.parse(readFileSync(join(dir, n, 'ctrf.json'), 'utf8'))).errors, n).toEqual([]);
  return runs.length;
}

/** The five nights and what history says of them, on one store. */
async function fiveNights(store: string[]): Promise<void> {
  const D = join(tmp, `five-${store.length ? 'postgres' : 'sqlite'}`);
  const base = ['conformance', '--service', 'pools', '--reports-dir', D, ...store];
  const { runs, seconds } = await nights([base, [...base, '--fault', FAULT], base, [...base, '--fault', FAULT], base]);
  console.log(`five nights on ${store.length ? 'PostgreSQL' : 'SQLite'}: ${seconds.join(' s, ')} s; exit codes ${runs.map((r) => r.code).join(', ')}`);
  expect(runs.map((r) => r.code)).toEqual([0, 1, 0, 1, 0]);
  for (const r of runs) expect(r.stdout).toMatch(/^history: run \d of this target and scope in /m);
  const v = await history(D, store);
  expect(v.runs).toHaveLength(5);
  expect(v.runs.map((r) => r.verdict)).toEqual(['PASSED', 'NOT CERTIFIED', 'PASSED', 'NOT CERTIFIED', 'PASSED']);
  expect(v.runs.map((r) => r.faults)).toEqual([[], [FAULT], [], [FAULT], []]);
  expect([...v.runs.map((r) => r.startedAt)].sort()).toEqual(v.runs.map((r) => r.startedAt));
  const failedInFaultRuns = v.requirements.filter((r) => r.statuses[1] === 'failed' && r.statuses[3] === 'failed').map((r) => r.id);
  expect(failedInFaultRuns).toEqual([BROKEN]);
  const flagged = v.requirements.filter((r) => r.intermittent);
  expect(flagged.map((r) => r.id)).toEqual([BROKEN]);
  expect(flagged[0]!.statuses).toEqual(['passed', 'failed', 'passed', 'failed', 'passed']);
  // None that passed every run is flagged; every requirement of the scope has a status in every run.
  expect(v.requirements.filter((r) => r.statuses.every((s) => s === 'passed') && r.intermittent)).toEqual([]);
  expect(v.requirements.length).toBeGreaterThan(100);
  expect(v.requirements.every((r) => r.statuses.length === 5)).toBe(true);
  // The second night: a new failure; the fourth: intermittent.
  expect(v.runs[1]!.newFailures).toEqual([BROKEN]);
  expect(v.runs[3]!.intermittentFailures).toEqual([BROKEN]);
  expect(runs[1]!.stdout).toMatch(/^history: run 2 of this target and scope in .* — failures: 1 new, 0 intermittent, 0 still failing/m);
  expect(runs[3]!.stdout).toMatch(/— failures: 0 new, 1 intermittent, 0 still failing/);
  const junit = readFileSync(join(D, v.runs[1]!.runId, 'junit.xml'), 'utf8');
  expect(junit).toContain(`<property name="newFailures" value="${BROKEN}"/>`);
  expect(everyCtrfValid(D)).toBe(5);
  if (!store.length) expect(existsSync(join(D, 'history.db'))).toBe(true);
  else expect(existsSync(join(D, 'history.db'))).toBe(false);
}

// The three series run at once, each into a store of its own: their runs mostly wait on the quote TTL.
describe.concurrent('nights of rampart conformance --service pools into one store', () => {
  it('five nights on the SQLite file beside the reports (no setup)', async () => {
    await fiveNights([]);
  });

  it.skipIf(!!pg.skip)(`five nights on PostgreSQL with --history postgres://… on every command${pg.skip ? ` (skipped: ${pg.skip})` : ''}`, async () => {
    const db = await freshDatabase(pg.url!);
    cleanups.push(db.drop);
    await fiveNights(['--history', db.url]);
  });

  it('the seeded some-runs fault over five runs: its requirement is flagged intermittent, the others are not', async () => {
    // Five nights' seeds (as a nightly job might pass its date): the first base whose draws flip at least twice.
    const seedsOf = (k: number) => [1, 2, 3, 4, 5].map((n) => `night-${k}-${n}`);
    const k = Array.from({ length: 100 }, (_, i) => i).find((i) => {
      const on = seedsOf(i).map((s) => startBreaks(s, 0.5));
      return on.filter((x, j) => j > 0 && x !== on[j - 1]).length >= 2;
    })!;
    const seeds = seedsOf(k);
    const D = join(tmp, 'some-runs');
    const args = ['conformance', '--service', 'pools', '--reports-dir', D, '--fault', SOME_RUNS.name];
    const { runs, seconds } = await nights(
      seeds.map(() => args),
      seeds.map((s) => ({ RAMPART_FAULT_SHARE: '0.5', RAMPART_FAULT_SEED: s })),
    );
    const expected = seeds.map((s) => (startBreaks(s, 0.5) ? 'failed' : 'passed'));
    console.log(`some-runs fault, seeds ${seeds.join(', ')}: ${expected.join(', ')} in ${seconds.join(' s, ')} s`);
    expect(runs.map((r) => r.code)).toEqual(expected.map((s) => (s === 'failed' ? 1 : 0)));
    const v = await history(D);
    expect(v.runs.map((r) => r.faults)).toEqual(seeds.map(() => [SOME_RUNS.name]));
    expect(v.requirements.find((r) => r.id === BROKEN)!.statuses).toEqual(expected);
    expect(v.requirements.filter((r) => r.intermittent).map((r) => r.id)).toEqual([BROKEN]);
    expect(everyCtrfValid(D)).toBe(5);
  });
});
