// `rampart setup` (and the repository's `npm run setup`): puts the pinned k6
// and Toxiproxy into the per-user tools cache, once per machine. For each
// binary, the first that works: the one already cached; one on PATH whose
// version matches (linked, not copied); one a clone built into its old
// tools/bin folder (copied); else built from the pinned Go module (the
// package's tools/go.mod and go.sum) in a scratch folder, never inside the
// package, which may be read-only. Everything lands under a temporary name
// and is renamed into place, so two setups at once cannot leave half a file.
import { spawnSync } from 'node:child_process';
import { accessSync, chmodSync, constants, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { packagePath } from '../packageRoot.js';
import { BINARIES, cachedBinary, k6IsVersion, pinnedVersion, stampOf, toolDir, toolsCacheDir, TOOLS_MODULE_DIR, type ToolBinary } from './pinned.js';

export interface SetupResult {
  binary: ToolBinary['name'];
  version: string;
  path: string;
  /** cached: already there; linked: a matching one on PATH; copied: from a clone's tools/bin; built: from the Go module. */
  how: 'cached' | 'linked' | 'copied' | 'built';
  from?: string;
}

/** Setup cannot finish (no Go toolchain, a failed build): one line for the user. */
export class SetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SetupError';
  }
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first executable of this name on PATH. */
export function onPath(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, name);
    if (existsSync(p) && isExecutable(p)) return p;
  }
  return undefined;
}

/** Whether a binary reports the pinned version (Toxiproxy built from source says "git": its stamp decides). */
function reportsVersion(b: ToolBinary, path: string, version: string): boolean {
  if (b.tool === 'k6') return k6IsVersion(path, version);
  const out = spawnSync(path, ['-version'], { encoding: 'utf8', timeout: 10_000 });
  return `${out.stdout ?? ''}${out.stderr ?? ''}`.includes(version.replace(/^v/, ''));
}

function cachedOk(b: ToolBinary, path: string, version: string): boolean {
  try {
    if (!existsSync(path) || readFileSync(stampOf(path), 'utf8').trim() !== version) return false;
  } catch {
    return false;
  }
  // A link to a PATH binary may since have been upgraded: k6 can say which version it is.
  return b.tool !== 'k6' || k6IsVersion(path, version);
}

/** Place a file at `dest` under a temporary name first, then its stamp, then rename: readers see all or nothing. */
function place(dest: string, version: string, put: (tmp: string) => void): void {
  const tmp = `${dest}.tmp-${process.pid}`;
  rmSync(tmp, { force: true });
  put(tmp);
  writeFileSync(stampOf(dest), version);
  renameSync(tmp, dest);
}

function goBuild(b: ToolBinary, dest: string, version: string, env: NodeJS.ProcessEnv, log: (l: string) => void): void {
  const go = onPath('go', env);
  if (!go)
    throw new SetupError(
      `the Go toolchain is needed to build ${b.name} ${version} (none on PATH, no matching ${b.name} on PATH): install Go ≥ 1.25, or put ${b.name} ${version} on PATH, then run rampart setup again`,
    );
  // A scratch copy of the pinned module: go may write go.mod/go.sum, and the package may be read-only.
  mkdirSync(toolsCacheDir(env), { recursive: true });
  const scratch = mkdtempSync(join(toolsCacheDir(env), '.build-'));
  try {
    for (const f of ['go.mod', 'go.sum', 'tools.go']) copyFileSync(join(TOOLS_MODULE_DIR, f), join(scratch, f));
    log(`building ${b.name} ${version} from its Go module (once per machine; k6 takes a couple of minutes)`);
    place(dest, version, (tmp) => {
      const r = spawnSync(go, ['build', '-trimpath', '-o', tmp, b.goPackage], {
        cwd: scratch,
        env: { ...env, GOFLAGS: '-mod=mod' },
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      if (r.status !== 0) throw new SetupError(`go build of ${b.name} ${version} failed (exit ${r.status ?? r.signal}): see the lines above`);
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Make every pinned binary available in the cache. `seedDirs` are folders an older setup built into
 * (a clone's tools/bin, with its .<name>.version stamps); by default the package's own.
 */
export function setupTools(
  opts: { env?: NodeJS.ProcessEnv; log?: (line: string) => void; seedDirs?: string[]; build?: typeof goBuild } = {},
): SetupResult[] {
  const env = opts.env ?? process.env;
  const log = opts.log ?? (() => undefined);
  const seedDirs = opts.seedDirs ?? [packagePath('tools', 'bin')];
  const build = opts.build ?? goBuild;
  const out: SetupResult[] = [];
  for (const b of BINARIES) {
    const version = pinnedVersion(b.tool);
    const dest = cachedBinary(b.name, env);
    mkdirSync(toolDir(b.tool, env), { recursive: true });
    if (cachedOk(b, dest, version)) {
      out.push({ binary: b.name, version, path: dest, how: 'cached' });
      continue;
    }
    const found = onPath(b.name, env);
    if (found && reportsVersion(b, found, version)) {
      place(dest, version, (tmp) => symlinkSync(found, tmp));
      out.push({ binary: b.name, version, path: dest, how: 'linked', from: found });
      continue;
    }
    const seed = seedDirs
      .map((d) => join(d, b.name))
      .find((p) => {
        try {
          return existsSync(p) && readFileSync(join(p, '..', `.${b.name}.version`), 'utf8').trim() === version;
        } catch {
          return false;
        }
      });
    if (seed) {
      place(dest, version, (tmp) => {
        copyFileSync(seed, tmp);
        chmodSync(tmp, 0o755);
      });
      out.push({ binary: b.name, version, path: dest, how: 'copied', from: seed });
      continue;
    }
    build(b, dest, version, env, log);
    out.push({ binary: b.name, version, path: dest, how: 'built' });
  }
  return out;
}

/** What setup did, one line per binary. */
export function formatSetup(results: SetupResult[], env: NodeJS.ProcessEnv = process.env): string[] {
  const how = (r: SetupResult) =>
    r.how === 'cached' ? 'already there' : r.how === 'linked' ? `linked to ${r.from}` : r.how === 'copied' ? `copied from ${r.from}` : 'built';
  return [...results.map((r) => `${r.binary} ${r.version}: ${r.path} (${how(r)})`), `tools cache: ${toolsCacheDir(env)} (shared by every rampart of this user)`];
}
