// What makes two runs comparable: one target and one scope. The embedded target's runs with and without --fault
// are one target (a sandbox is one target whose behaviour changes from night to night): its name is the profile's
// without the "[faults: …]" the run appends, and its key the profile's hash without the faults (the CLI's
// profileSha256(profile, no faults)); a run recorded without a hash (a test's, an imported record) is keyed by name.
import type { RunResults, RunScope } from '../report/results.js';

const FAULTS_SUFFIX = /\s*\[faults: ([^\]]*)\]\s*$/;

/** The profile name without the faults the run appended to it. */
export function targetNameOf(profileName: string): string {
  return profileName.replace(FAULTS_SUFFIX, '');
}

/** The faults a run's profile name says it ran with. */
export function faultsOfName(profileName: string): string[] {
  const m = FAULTS_SUFFIX.exec(profileName);
  return m
    ? m[1]!
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];
}

export function targetKeyOf(profileName: string, targetHash?: string): string {
  return targetHash ? `sha256:${targetHash}` : `name:${targetNameOf(profileName)}`;
}

/** The scope as one key: the command, its kinds, depth and every filter that narrowed it. */
export function scopeKeyOf(results: Pick<RunResults, 'command' | 'depth'> & { scope?: RunScope }): string {
  const s = results.scope;
  if (!s) return `${results.command}|depth=${results.depth}`;
  const parts = [
    results.command,
    [...s.kinds].sort().join('+'),
    `depth=${s.depth}`,
    ...(s.service ? [`service=${s.service}`] : []),
    ...(s.grep ? [`grep=${s.grep}`] : []),
    ...(s.scenarios?.length ? [`scenarios=${[...s.scenarios].sort().join('+')}`] : []),
    ...(s.cases?.length ? [`cases=${[...s.cases].sort().join('+')}`] : []),
  ];
  return parts.join('|');
}

/** The scope as a reader says it: "conformance, service pools, depth quick". */
export function describeScopeKey(key: string): string {
  const [command, kinds, ...rest] = key.split('|');
  const filters = rest.map((p) => p.replace('=', ' '));
  return [command, ...(kinds && !kinds.startsWith('depth=') ? [] : kinds ? [kinds.replace('=', ' ')] : []), ...filters].join(', ');
}
