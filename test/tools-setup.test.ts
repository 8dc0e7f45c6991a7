// Where the pinned tools live and how `rampart setup` fills that place: the
// per-user cache ($XDG_CACHE_HOME/rampart/tools/<tool>-<version>/), one
// binary per pin, taken from the cache, else linked from PATH when its
// version matches, else copied from a clone's old tools/bin, else built.
// Fake binaries (shell scripts that print a version) stand in for k6 and
// Toxiproxy; the Go build is replaced by one that writes such a script.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cachedBinary, findK6, findToxiproxyServer, pinnedVersion, toolDir, toolInventory, toolsCacheDir } from '../src/tools/pinned.js';
import { setupTools, SetupError } from '../src/tools/setup.js';

const tmp = mkdtempSync(join(tmpdir(), 'rampart-tools-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const K6 = pinnedVersion('k6');
const TOXI = pinnedVersion('toxiproxy');

/** A script answering `k6 version` / `-version` like the real binaries. */
function fakeBinary(path: string, says: string): void {
  writeFileSync(path, `#!/bin/sh\necho "${says}"\n`);
  chmodSync(path, 0o755);
}

let n = 0;
/** A fresh user: its own cache, a PATH without the real tools. */
function user(): { env: NodeJS.ProcessEnv; bin: string } {
  const home = join(tmp, `user-${++n}`);
  const bin = join(home, 'bin');
  mkdirSync(bin, { recursive: true });
  return { env: { HOME: home, XDG_CACHE_HOME: join(home, 'cache'), PATH: bin }, bin };
}

/** A build that writes what the Go build would: a binary answering with the pinned version. */
const fakeBuild = (calls: string[]) => (b: { name: string; tool: string }, dest: string, version: string) => {
  calls.push(b.name);
  fakeBinary(dest, b.tool === 'k6' ? `k6 ${version} (go1.25, linux/amd64)` : 'git');
  writeFileSync(`${dest}.version`, version);
};

describe('the per-user tools cache', () => {
  it('is $XDG_CACHE_HOME/rampart/tools, else ~/.cache/rampart/tools, one folder per tool and pinned version', () => {
    expect(toolsCacheDir({ XDG_CACHE_HOME: '/x/cache', HOME: '/x/home' })).toBe(join('/x/cache', 'rampart', 'tools'));
    expect(toolsCacheDir({ HOME: '/x/home' })).toBe(join('/x/home', '.cache', 'rampart', 'tools'));
    expect(toolDir('k6', { XDG_CACHE_HOME: '/c' })).toBe(join('/c', 'rampart', 'tools', `k6-${K6}`));
    expect(cachedBinary('toxiproxy-server', { XDG_CACHE_HOME: '/c' })).toBe(join('/c', 'rampart', 'tools', `toxiproxy-${TOXI}`, 'toxiproxy-server'));
  });

  it('an empty cache, nothing on PATH, no Go: setup says what to install; --version-style inventory says not found and where', () => {
    const { env } = user();
    expect(() => setupTools({ env: { ...env, PATH: '/nonexistent' }, seedDirs: [] })).toThrow(SetupError);
    expect(() => setupTools({ env: { ...env, PATH: '/nonexistent' }, seedDirs: [] })).toThrow(/Go toolchain is needed to build k6/);
    const inv = toolInventory(env);
    expect(inv.map((t) => [t.binary, t.path])).toEqual([
      ['k6', null],
      ['toxiproxy-server', null],
      ['toxiproxy-cli', null],
    ]);
    expect(inv[0]!.missing).toContain(`npx rampart setup`);
    expect(inv[0]!.missing).toContain(toolDir('k6', env));
  });

  it('builds what is missing once; the next setup (another project, same user) finds it in the cache', () => {
    const { env } = user();
    const calls: string[] = [];
    const first = setupTools({ env, seedDirs: [], build: fakeBuild(calls) });
    expect(first.map((r) => `${r.binary}:${r.how}`)).toEqual(['k6:built', 'toxiproxy-server:built', 'toxiproxy-cli:built']);
    const again = setupTools({ env, seedDirs: [], build: fakeBuild(calls) });
    expect(again.map((r) => r.how)).toEqual(['cached', 'cached', 'cached']);
    expect(calls).toEqual(['k6', 'toxiproxy-server', 'toxiproxy-cli']);
    expect(findK6(env)).toEqual({ path: cachedBinary('k6', env) });
    expect(findToxiproxyServer(env)).toEqual({ path: cachedBinary('toxiproxy-server', env) });
  });

  it('links a k6 on PATH whose version matches, never one of another version', () => {
    const { env, bin } = user();
    fakeBinary(join(bin, 'k6'), 'k6 v0.0.1 (an older k6)');
    const calls: string[] = [];
    expect(setupTools({ env, seedDirs: [], build: fakeBuild(calls) })[0]!.how).toBe('built');
    const other = user();
    fakeBinary(join(other.bin, 'k6'), `k6 ${K6} (go1.25, linux/amd64)`);
    const [k6] = setupTools({ env: other.env, seedDirs: [], build: fakeBuild([]) });
    expect(k6).toMatchObject({ how: 'linked', from: join(other.bin, 'k6') });
    expect(lstatSync(cachedBinary('k6', other.env)).isSymbolicLink()).toBe(true);
  });

  it("copies a clone's old tools/bin build (its version stamps match) instead of building again", () => {
    const { env } = user();
    const seed = join(tmp, `seed-${n}`);
    mkdirSync(seed);
    fakeBinary(join(seed, 'k6'), `k6 ${K6} (go1.25, linux/amd64)`);
    writeFileSync(join(seed, '.k6.version'), K6);
    fakeBinary(join(seed, 'toxiproxy-server'), 'git');
    writeFileSync(join(seed, '.toxiproxy-server.version'), 'v0.0.1');
    const calls: string[] = [];
    const done = setupTools({ env, seedDirs: [seed], build: fakeBuild(calls) });
    expect(done.map((r) => `${r.binary}:${r.how}`)).toEqual(['k6:copied', 'toxiproxy-server:built', 'toxiproxy-cli:built']);
    expect(lstatSync(cachedBinary('k6', env)).isSymbolicLink()).toBe(false);
    expect(readFileSync(`${cachedBinary('k6', env)}.version`, 'utf8')).toBe(K6);
  });

  it('rampart --version prints rampart, each pinned tool found or not with its path, and node', () => {
    const { env } = user();
    setupTools({ env, seedDirs: [], build: fakeBuild([]) });
    const r = spawnSync(process.execPath, [join(import.meta.dirname, '..', 'bin', 'rampart.js'), '--version'], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    const version = (JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as { version: string }).version;
    expect(r.stdout.split('\n').filter(Boolean)).toEqual([
      `rampart ${version}`,
      `k6 ${K6} (pinned): ${cachedBinary('k6', env)}`,
      `toxiproxy-server ${TOXI} (pinned): ${cachedBinary('toxiproxy-server', env)}`,
      `toxiproxy-cli ${TOXI} (pinned): ${cachedBinary('toxiproxy-cli', env)}`,
      `node ${process.version}`,
    ]);
    expect(existsSync(toolsCacheDir(env))).toBe(true);
  });
});
