// Every kind of run records itself, through the real CLI, into one store: chaos, explore (with its seed), load, a
// run interrupted by SIGINT (its record says INTERRUPTED), and a run that ended on a run error (the target down).
// Certify records itself too: .ci/run checks the store after `npm start`.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openHistoryStore } from '../../src/history/store.js';
import { cliIn, ROOT } from '../support/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'rampart-kinds-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const cli = cliIn(tmp);
const D = join(tmp, 'reports');

/** A conformance run stopped by SIGINT a few seconds in: its exit code. */
function interrupted(): Promise<number | null> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin/rampart.js'), 'conformance', '--service', 'pools', '--reports-dir', D], {
      cwd: ROOT,
      env: { ...process.env, CI: '1', GITHUB_STEP_SUMMARY: '' },
      stdio: 'ignore',
    });
    setTimeout(() => child.kill('SIGINT'), 6_000);
    child.on('exit', (code) => done(code));
  });
}

describe('every kind of run records itself', () => {
  it('chaos, explore, load, an interrupted run and a run error land in the store with their verdicts', async () => {
    // A target that is down: the embedded profile's partners at a port nothing listens on.
    const down = join(tmp, 'down.json');
    const profile = JSON.parse(readFileSync(join(ROOT, 'fixtures/profiles/embedded.json'), 'utf8'));
    profile.gate.baseUrls = { sandbox: 'http://127.0.0.1:9/v1', production: 'http://127.0.0.1:10/v1' };
    if (profile.pools) profile.pools.baseUrls = { sandbox: 'http://127.0.0.1:11/v1', production: 'http://127.0.0.1:12/v1' };
    writeFileSync(down, JSON.stringify(profile));
    const runs = [
      await cli(['chaos', '--service', 'pools', '--grep', 'response was lost', '--reports-dir', D]),
      await cli(['explore', '--service', 'pools', '--budget', '20', '--seed', '7', '--reports-dir', D]),
      await cli(['load', '--scenario', 'transact-race', '--reports-dir', D]),
      await cli(['conformance', '--profile', down, '--reports-dir', D]),
    ];
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0, 3]);
    expect(await interrupted()).toBe(130);
    const store = await openHistoryStore({ reportsDir: D });
    const recorded = await store.runs();
    expect(recorded.map((r) => [r.command, r.verdict])).toEqual([
      ['chaos', 'PASSED'],
      ['explore', 'PASSED'],
      ['load', 'PASSED'],
      ['conformance', 'INCOMPLETE'],
      ['conformance', 'INTERRUPTED'],
    ]);
    expect(recorded.map((r) => r.exitCode)).toEqual([0, 0, 0, 3, 130]);
    expect(recorded[4]!.interrupted).toBe('SIGINT');
    // Explore's seed is kept with its run.
    const seeds = await (store as unknown as { handle: import('../../src/history/db.js').DbHandle }).handle.read((db) =>
      db.all<{ seeds: string | null }>('SELECT seeds FROM runs WHERE command = ?', ['explore']),
    );
    expect(JSON.parse(seeds[0]!.seeds!)).toEqual({ explore: 7 });
    expect((await store.groups()).length).toBe(5);
  });
});
