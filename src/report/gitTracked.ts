// Where a path stands relative to a git work tree: a private key must never
// land where a commit could pick it up.
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';

export type GitStatus = 'tracked' | 'untracked' | 'ignored' | 'outside';

function git(cwd: string, args: string[]): string | null {
  try {
    return execFileSync('git', ['-C', cwd, ...args], { stdio: ['ignore', 'pipe', 'ignore'], timeout: 5_000, encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}

/**
 * tracked: git has it (or, for a directory, files under it); ignored: .gitignore keeps it out;
 * untracked: in a work tree and a `git add` would take it; outside: no work tree (or no git).
 */
export function gitStatusOf(path: string): GitStatus {
  const abs = resolve(path);
  let dir = existsSync(abs) && statSync(abs).isDirectory() ? abs : dirname(abs);
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  const top = git(dir, ['rev-parse', '--show-toplevel']);
  if (!top) return 'outside';
  const rel = relative(top, abs) || '.';
  if (rel.startsWith('..')) return 'outside';
  if (git(top, ['ls-files', '--', rel])) return 'tracked';
  return git(top, ['check-ignore', '-q', '--', rel]) !== null ? 'ignored' : 'untracked';
}
