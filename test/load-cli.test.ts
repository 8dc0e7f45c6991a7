// The `rampart load` flags of the load module through the real CLI: bad
// values end with one line and exit 2 before any traffic; --emit writes the
// k6-operator bundle for a profile and runs nothing.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findK6 } from '../src/load/k6.js';

const root = resolve(import.meta.dirname, '..');
const tmp = mkdtempSync(join(tmpdir(), 'rampart-load-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [join(root, 'bin/rampart.js'), 'load', '--reports-dir', join(tmp, 'reports'), ...args],
      { cwd: root, env: { ...process.env, NO_COLOR: '1', CI: '1' }, timeout: 60_000 },
      (err, stdout, stderr) => done({ code: err ? ((err as { code?: number }).code ?? -1) : 0, stdout: String(stdout), stderr: String(stderr) }),
    );
  });
}

describe('rampart load flags', () => {
  for (const [args, says] of [
    [['--segments', '0'], '--segments takes a whole number from 1 to 16, not "0"'],
    [['--segments', 'two'], '--segments takes a whole number from 1 to 16, not "two"'],
    [['--seed', '-4'], '--seed takes a whole number'],
    [['--scenario', 'flood'], 'unknown scenario flood'],
    [['--emit', 'helm', join(tmp, 'x')], '--emit takes a format and a directory: --emit k6-operator DIR'],
    [['--emit', 'k6-operator', join(tmp, 'x')], '--emit needs --profile'],
  ] as const) {
    it(`${args.join(' ')}: one line, exit 2`, async () => {
      const r = await cli([...args]);
      expect(r.code).toBe(2);
      const lines = r.stderr.split('\n').filter((l) => l.trim());
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(says);
    });
  }

  it.skipIf('missing' in findK6())('--emit k6-operator DIR --profile: writes the bundle per scenario and exits 0', async () => {
    const out = join(tmp, 'bundle');
    const r = await cli(['--emit', 'k6-operator', out, '--profile', 'fixtures/profiles/embedded.json', '--scenario', 'smoke', 'quote-ttl', '--segments', '2']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    for (const s of ['smoke', 'quote-ttl'])
      for (const f of ['archive.tar', 'configmap.json', 'secret.json', 'testrun.json', 'create-secret.sh', 'README.md'])
        expect(existsSync(join(out, s, f)), `${s}/${f}`).toBe(true);
    expect(r.stdout).toContain('smoke: ');
  });
});
