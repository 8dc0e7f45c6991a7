// A race finding's replay script reproduces it: run as written (bash, `npx rampart races … --times N`), against the
// faulty embedded target the run named, it fires the family's burst N times at once and says how often the finding
// showed — and exits 1 when it did. The script's `npx rampart` is the repository's own bin here (a shim on PATH).
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbedded } from './support/embedded.js';
import { racesAgainst } from './support/races.js';

const FAULT = 'race-cust-email-unique-gap';
const tmp = mkdtempSync(join(tmpdir(), 'rampart-races-replay-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function run(script: string, n: number): Promise<{ code: number; out: string }> {
  const bin = join(tmp, 'bin');
  writeFileSync(join(tmp, 'replay.sh'), script);
  // `npx rampart ARGS` → the repository's rampart with ARGS.
  rmSync(bin, { recursive: true, force: true });
  mkdirSync(bin);
  writeFileSync(join(bin, 'npx'), `#!/bin/sh\nshift\nexec "${process.execPath}" "${resolve('bin/rampart.js')}" "$@"\n`);
  chmodSync(join(bin, 'npx'), 0o755);
  return new Promise((done) =>
    execFile(
      'bash',
      [join(tmp, 'replay.sh'), String(n)],
      { cwd: tmp, env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, CI: '1' }, timeout: 240_000 },
      (err, stdout, stderr) => done({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` }),
    ),
  );
}

describe('the replay script of a race finding', () => {
  it('fires the burst N times in parallel against the faulty embedded target, says how often the finding showed, exits 1', async () => {
    const w = await startEmbedded({ faults: [FAULT] });
    let script: string;
    try {
      const { races } = await racesAgainst(w.profile, { seed: 9, families: ['customers-one-email'], faults: [FAULT] });
      expect(races.findings.length).toBe(1);
      script = races.findings[0]!.replay.script;
    } finally {
      await w.close();
    }
    expect(script).toMatch(/^#!\/usr\/bin\/env bash/);
    expect(script).toContain(`--fault '${FAULT}' --family customers-one-email --times "$N" --seed 9`);
    const { code, out } = await run(script, 4);
    const shown = /the finding showed in (\d+) of 4 bursts/.exec(out);
    expect(shown, out.slice(-2000)).not.toBeNull();
    expect(Number(shown![1])).toBeGreaterThanOrEqual(1);
    expect(code).toBe(1);
  }, 300_000);
});
