// `rampart history` through the real CLI on a store of made-up runs (written as every run is): --json prints the runs
// of the newest run's target and scope oldest first and each requirement's statuses in run order with its flag;
// --last, --since and --profile narrow it; the text says the same for a terminal; prune --keep removes old runs.
// Bad values, a store that cannot be reached and a baseline the store does not hold are refused in one line (exit
// 2) before any traffic, a store's password never printed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryView } from '../src/history/view.js';
import { writeRun } from '../src/report/writeRun.js';
import { cliIn } from './support/cli.js';
import { nightAt, nightRun } from './support/nights.js';

const tmp = mkdtempSync(join(tmpdir(), 'rampart-history-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const cli = cliIn(tmp);
const D = join(tmp, 'reports');
const TRON = 'POOLS-QUOTE-NETWORK-DEFAULT-TRON';
const pattern = ['passed', 'failed', 'passed', 'failed', 'passed'] as const;

beforeAll(async () => {
  // Two runs of another scope, older than the five of the series: the newest run's group is the series'.
  for (const n of [1, 2]) await writeRun(nightRun({ ...nightAt(n), profileName: 'my-sandbox', command: 'certify' }), { reportsDir: D });
  for (const [i, s] of pattern.entries())
    await writeRun(nightRun({ ...nightAt(25 + i), profileName: 'my-sandbox', statuses: { [TRON]: s } }), { reportsDir: D });
});

const json = async (...args: string[]) => {
  const r = await cli(['history', '--json', '--reports-dir', D, ...args]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as HistoryView;
};

describe('rampart history', () => {
  it('--json: the runs oldest first with their verdicts, each requirement in run order with its flag', async () => {
    const v = await json();
    expect(v.runs.map((r) => r.runId)).toEqual(pattern.map((_, i) => nightAt(25 + i).runId));
    expect(v.runs.map((r) => r.verdict)).toEqual(['PASSED', 'NOT CERTIFIED', 'PASSED', 'NOT CERTIFIED', 'PASSED']);
    expect(v.runs[1]!.newFailures).toEqual([TRON]);
    expect(v.runs[3]!.intermittentFailures).toEqual([TRON]);
    expect(v.requirements.find((r) => r.id === TRON)).toMatchObject({ statuses: [...pattern], intermittent: true, flips: 4 });
    expect(v.requirements.filter((r) => r.intermittent).map((r) => r.id)).toEqual([TRON]);
    expect(v.flipped).toEqual([{ id: TRON, from: 'failed', to: 'passed', runId: nightAt(29).runId }]);
    expect(v.new).toEqual({ lastPassingRun: nightAt(27).runId, failures: [] });
    expect(v.otherGroups).toEqual([expect.objectContaining({ target: 'my-sandbox', runs: 2 })]);
  });

  it('--last, --since and --profile narrow it; the text shows the strips', async () => {
    expect((await json('--last', '2')).runs.map((r) => r.runId)).toEqual([nightAt(28).runId, nightAt(29).runId]);
    const since = await json('--since', new Date(Date.parse(nightAt(27).startedAt) - 1000).toISOString());
    expect(since.runs.map((r) => r.runId)).toEqual([27, 28, 29].map((n) => nightAt(n).runId));
    expect((await json('--profile', 'my-sandbox')).runs).toHaveLength(5);
    const none = await json('--profile', 'another-sandbox');
    expect(none.runs).toEqual([]);
    const text = await cli(['history', '--reports-dir', D]);
    expect(text.stdout).toMatch(new RegExp(`${TRON}\\s+✓✗✓✗✓\\s+intermittent \\(4 flips\\)`));
  });

  it('prune --keep removes the runs older than the age, with what was recorded of them', async () => {
    const r = await cli(['history', 'prune', '--keep', '20d', '--reports-dir', D]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^pruned 2 runs started before /);
    expect((await json()).otherGroups).toEqual([]);
  });

  it('bad values and unusable stores are refused in one line, exit 2, never printing a password', async () => {
    const cases: [string[], RegExp][] = [
      [['history', '--last', '0', '--reports-dir', D], /--last 0: give a whole number/],
      [['history', 'prune', '--keep', 'soon', '--reports-dir', D], /--keep soon: give an age/],
      [['history', '--since', 'yesterday-ish', '--reports-dir', D], /--since yesterday-ish: give an age/],
      [['history', '--history', 'mysql://u:pw@127.0.0.1/x', '--reports-dir', D], /--history takes a postgres:\/\/ URL/],
      [
        ['history', '--history', 'postgres://u:hunter2secret@127.0.0.1:1/x', '--reports-dir', D],
        /cannot connect to the history store postgres:\/\/u:\*\*\*@127\.0\.0\.1:1\/x/,
      ],
      [
        ['conformance', '--history', 'postgres://u:hunter2secret@127.0.0.1:1/x', '--reports-dir', join(tmp, 'never')],
        /cannot connect to the history store postgres:\/\/u:\*\*\*@/,
      ],
      [['load', '--scenario', 'smoke', '--baseline', 'no-such-run', '--reports-dir', D], /--baseline no-such-run: no such run in the history store/],
    ];
    const runs = await Promise.all(cases.map(([args]) => cli(args)));
    runs.forEach((r, i) => {
      expect(r.code, `${cases[i]![0].join(' ')}: ${r.stderr}`).toBe(2);
      const lines = r.stderr.split('\n').filter((l) => l.trim());
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(cases[i]![1]);
      expect(r.stdout + r.stderr).not.toContain('hunter2secret');
    });
  });
});
