// The pinned Go tools rampart stands on — k6 (load) and Toxiproxy (chaos) —
// and where they live: one folder per tool and version in the per-user cache
// ($XDG_CACHE_HOME or ~/.cache)/rampart/tools/<tool>-<version>/, shared by
// every clone and every installed copy of rampart on the machine. `rampart
// setup` (src/tools/setup.ts) fills it; load and chaos only look here.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { packagePath } from '../packageRoot.js';

export type ToolName = 'k6' | 'toxiproxy';

/** A program built from a tool's Go module. */
export interface ToolBinary {
  name: 'k6' | 'toxiproxy-server' | 'toxiproxy-cli';
  tool: ToolName;
  /** The Go package `go build` makes it from. */
  goPackage: string;
}

/** The Go module of each tool, as tools/go.mod requires it (the single source of the pins). */
const MODULES: Record<ToolName, string> = { k6: 'go.k6.io/k6/v2', toxiproxy: 'github.com/Shopify/toxiproxy/v2' };

export const BINARIES: readonly ToolBinary[] = [
  { name: 'k6', tool: 'k6', goPackage: 'go.k6.io/k6/v2' },
  { name: 'toxiproxy-server', tool: 'toxiproxy', goPackage: 'github.com/Shopify/toxiproxy/v2/cmd/server' },
  { name: 'toxiproxy-cli', tool: 'toxiproxy', goPackage: 'github.com/Shopify/toxiproxy/v2/cmd/cli' },
];

/** The pinned tools module (go.mod, go.sum, tools.go) inside the package. */
export const TOOLS_MODULE_DIR = packagePath('tools');

/** The version of a tool tools/go.mod pins (e.g. v2.2.0). */
export function pinnedVersion(tool: ToolName): string {
  const mod = readFileSync(join(TOOLS_MODULE_DIR, 'go.mod'), 'utf8');
  const escaped = MODULES[tool].replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const m = new RegExp(`${escaped}\\s+(v[\\d.]+)`).exec(mod);
  if (!m) throw new Error(`tools/go.mod does not pin ${MODULES[tool]}`);
  return m[1]!;
}

/** The per-user folder of every tool rampart builds: $XDG_CACHE_HOME/rampart/tools, or ~/.cache/rampart/tools. */
export function toolsCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME?.trim() || join(env.HOME?.trim() || homedir(), '.cache');
  return join(base, 'rampart', 'tools');
}

/** The folder of one tool at its pinned version: <cache>/<tool>-<version>. */
export function toolDir(tool: ToolName, env: NodeJS.ProcessEnv = process.env): string {
  return join(toolsCacheDir(env), `${tool}-${pinnedVersion(tool)}`);
}

/** Where a binary of the pinned version lives in the cache (whether or not it is there yet). */
export function cachedBinary(binary: ToolBinary['name'], env: NodeJS.ProcessEnv = process.env): string {
  const b = BINARIES.find((x) => x.name === binary)!;
  return join(toolDir(b.tool, env), binary);
}

/**
 * The version stamp beside a cached binary. Built from source, Toxiproxy's `-version` prints "git", so the
 * version is recorded when the binary is placed, and a binary without its stamp is not trusted.
 */
export const stampOf = (binaryPath: string): string => `${binaryPath}.version`;

function stamped(path: string, version: string): boolean {
  try {
    return existsSync(path) && readFileSync(stampOf(path), 'utf8').trim() === version;
  } catch {
    return false;
  }
}

/** Whether this k6 says it is the given version. */
export function k6IsVersion(path: string, version: string): boolean {
  const out = spawnSync(path, ['version'], { encoding: 'utf8', timeout: 10_000 });
  return out.status === 0 && new RegExp(`k6 ${version.replace(/\./g, '\\.')}\\b`).test(out.stdout);
}

const setupHint = (binary: string, version: string, env: NodeJS.ProcessEnv) =>
  `${binary} ${version} not found — run \`npx rampart setup\` (builds it into ${join(toolDir(BINARIES.find((b) => b.name === binary)!.tool, env))})`;

/** The pinned k6: RAMPART_K6, else the cache, else a k6 on PATH of the same version; or why there is none. */
export function findK6(env: NodeJS.ProcessEnv = process.env): { path: string } | { missing: string } {
  const version = pinnedVersion('k6');
  const cached = cachedBinary('k6', env);
  const candidates = [env.RAMPART_K6, stamped(cached, version) ? cached : undefined, 'k6'].filter((c): c is string => !!c);
  for (const c of candidates) {
    if (c !== 'k6' && !existsSync(c)) continue;
    if (k6IsVersion(c, version)) return { path: c };
  }
  return { missing: `${setupHint('k6', version, env)} or put k6 ${version} on PATH` };
}

/** The pinned toxiproxy-server: the cache, else RAMPART_TOXIPROXY_SERVER; or why there is none. */
export function findToxiproxyServer(env: NodeJS.ProcessEnv = process.env): { path: string } | { missing: string } {
  const version = pinnedVersion('toxiproxy');
  const cached = cachedBinary('toxiproxy-server', env);
  if (stamped(cached, version)) return { path: cached };
  if (env.RAMPART_TOXIPROXY_SERVER && existsSync(env.RAMPART_TOXIPROXY_SERVER)) return { path: env.RAMPART_TOXIPROXY_SERVER };
  return { missing: setupHint('toxiproxy-server', version, env) };
}

/** Each binary: its pinned version and the path it is found at (null when it is not there). */
export function toolInventory(env: NodeJS.ProcessEnv = process.env): { binary: ToolBinary['name']; version: string; path: string | null; missing?: string }[] {
  return BINARIES.map((b) => {
    const version = pinnedVersion(b.tool);
    if (b.name === 'k6') {
      const f = findK6(env);
      return { binary: b.name, version, path: 'path' in f ? f.path : null, ...('missing' in f ? { missing: f.missing } : {}) };
    }
    if (b.name === 'toxiproxy-server') {
      const f = findToxiproxyServer(env);
      return { binary: b.name, version, path: 'path' in f ? f.path : null, ...('missing' in f ? { missing: f.missing } : {}) };
    }
    const cached = cachedBinary(b.name, env);
    return stamped(cached, version) ? { binary: b.name, version, path: cached } : { binary: b.name, version, path: null, missing: setupHint(b.name, version, env) };
  });
}

/** The versions of k6 and toxiproxy-server in the cache (from their stamps, nothing run), null where absent. */
export function cachedToolVersions(env: NodeJS.ProcessEnv = process.env): { k6: string | null; toxiproxy: string | null } {
  const of = (binary: ToolBinary['name'], tool: ToolName) => {
    const version = pinnedVersion(tool);
    return stamped(cachedBinary(binary, env), version) ? version : null;
  };
  return { k6: of('k6', 'k6'), toxiproxy: of('toxiproxy-server', 'toxiproxy') };
}
