// The embedded target's live keys are issued at start, not tracked: no file
// under git holds a live-format key; the issued keys are stable for one
// profile, work on the production base URL only, and reach a harness in
// another process through `rampart serve --write-profile`, never the terminal.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadProfile } from '../src/profile/load.js';
import { Profile } from '../src/profile/schema.js';
import { issueLiveKeys } from '../src/reference/liveKeys.js';

const root = resolve(import.meta.dirname, '..');
const tmp = mkdtempSync(join(tmpdir(), 'rampart-livekeys-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const LIVE = /(sk|pk)_live_[A-Za-z0-9]{8,}/;
const NOT_OURS = new Set(['node_modules', '.git', 'tools', 'reports', '.tmp', 'dist']);

function projectFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    NOT_OURS.has(e.name) ? [] : e.isDirectory() ? projectFiles(join(dir, e.name)) : e.isFile() ? [join(dir, e.name)] : [],
  );
}

describe('live keys of the embedded target', () => {
  it('no tracked file holds a live-format key', () => {
    // File names only (never the key). git grep exits 1 when nothing matches; outside a git
    // checkout, read the project's own folders.
    const grep = spawnSync('git', ['grep', '-lIE', LIVE.source], { cwd: root, encoding: 'utf8' });
    if (grep.status === 0 || grep.status === 1) return expect(grep.stdout.trim()).toBe('');
    const hits = projectFiles(root).filter((f) => LIVE.test(readFileSync(f, 'utf8')));
    expect(hits).toEqual([]);
  });

  it('issued only to the partners named in reference.liveKeysFor: live format, distinct, the same on every start', () => {
    const base = loadProfile('fixtures/profiles/embedded.json');
    const named = base.reference!.liveKeysFor;
    expect(named.length).toBeGreaterThan(0);
    const a = issueLiveKeys(base);
    const b = issueLiveKeys(loadProfile('fixtures/profiles/embedded.json'));
    expect(a).toEqual(b);
    const keys: string[] = [];
    for (const p of a.gate.partners) {
      if (named.includes(p.name)) {
        expect(p.liveSecretKey).toMatch(/^sk_live_[A-Za-z0-9]{32}$/);
        expect(p.livePublishableKey).toMatch(/^pk_live_[A-Za-z0-9]{32}$/);
        keys.push(p.liveSecretKey!, p.livePublishableKey!);
      } else {
        expect(p.liveSecretKey).toBeUndefined();
      }
    }
    expect(new Set(keys).size).toBe(keys.length);
    // The result is still a valid profile, and a declared live key is kept as given.
    expect(Profile.safeParse(a).success).toBe(true);
    const declared = structuredClone(base);
    declared.gate.partners.find((p) => p.name === named[0])!.liveSecretKey = 'sk_live_' + 'declared'.repeat(4);
    expect(issueLiveKeys(declared).gate.partners.find((p) => p.name === named[0])!.liveSecretKey).toBe('sk_live_' + 'declared'.repeat(4));
  });

  it('a name that is not a gate partner is a clear error', () => {
    const base = loadProfile('fixtures/profiles/embedded.json');
    const bad = { ...base, reference: { ...base.reference!, liveKeysFor: ['gate-99'] } };
    expect(() => issueLiveKeys(bad)).toThrow(/reference\.liveKeysFor names gate-99, not a gate partner of profile embedded/);
  });

  it('serve --write-profile hands the issued keys to another process in a private file; the terminal never shows them', async () => {
    // The embedded profile on ephemeral ports (port 0), so the test never collides with a running serve.
    const raw = JSON.parse(readFileSync(join(root, 'fixtures/profiles/embedded.json'), 'utf8'));
    raw.gate.baseUrls = { sandbox: 'http://127.0.0.1:0/v1', production: 'http://127.0.0.1:0/v1' };
    raw.pools.baseUrls = { sandbox: 'http://127.0.0.1:0/v1', production: 'http://127.0.0.1:0/v1' };
    const input = join(tmp, 'serve-in.json');
    const written = join(tmp, 'serve-out.json');
    writeFileSync(input, JSON.stringify(raw));
    const child = spawn(process.execPath, [join(root, 'bin/rampart.js'), 'serve', '--profile', input, '--write-profile', written], {
      cwd: root,
      env: { ...process.env, NO_COLOR: '1' },
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    try {
      const deadline = Date.now() + 30_000;
      while (!out.includes('Ctrl-C to stop') && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 100));
      expect(out).toContain(`profile written to ${written}`);
      expect(out).toContain('live keys issued to gate-01, gate-02, gate-03');
      expect(out).not.toMatch(LIVE);
      expect(statSync(written).mode & 0o077).toBe(0);
      const running = loadProfile(written);
      const p1 = running.gate.partners[0]!;
      expect(p1.liveSecretKey).toBe(issueLiveKeys(loadProfile(input)).gate.partners[0]!.liveSecretKey);
      const get = (baseUrl: string, key: string) =>
        fetch(`${baseUrl}/gate_sessions`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(5_000) });
      expect((await get(running.gate.baseUrls.production!, p1.liveSecretKey!)).status).toBe(200);
      expect((await get(running.gate.baseUrls.sandbox, p1.liveSecretKey!)).status).toBe(403);
    } finally {
      child.kill('SIGTERM');
    }
  }, 60_000);
});
