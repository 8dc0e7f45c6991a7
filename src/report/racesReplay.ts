// The replay script of a race finding. A race is probabilistic: one burst that no serial order explains may not show
// again on the next, so the script fires the family's burst N times in parallel (each on fresh objects of its own,
// the same steps before it) and says in how many of them the finding showed — `rampart races --family ID --times N`,
// judged by the same oracle. It names the target the way the run did: the profile file (secrets as its ${VAR}
// references, never their values), or the embedded target with the faults it ran with.

export interface RaceReplayInput {
  family: string;
  /** The run's seed: the order of sending of each burst. */
  seed: number;
  /** The profile file the run used; absent: the embedded target. */
  profile?: string;
  /** The embedded target's faults, when the run started it with some. */
  faults?: readonly string[];
  /** The finding, for the script's comment. */
  what: string;
}

const quoted = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function racesReplay(input: RaceReplayInput): { script: string; env: string[]; notes: string[] } {
  const target = input.profile ? `--profile ${quoted(input.profile)}` : input.faults?.length ? `--fault ${input.faults.map(quoted).join(' ')}` : '';
  const script = [
    '#!/usr/bin/env bash',
    `# rampart races: ${input.what.replace(/\n/g, ' ')}`,
    '# Fire the burst N times in parallel, each on fresh objects after the same steps, and count how often it shows again.',
    'set -euo pipefail',
    'N="${1:-20}"',
    `npx rampart races ${target} --family ${input.family} --times "$N" --seed ${input.seed}`.replace(/\s+/g, ' '),
    '',
  ].join('\n');
  const notes = [
    'each of the N bursts is judged like the run judged it: against fresh oracle worlds, every serial order that keeps real time',
    'the script prints "the finding showed in k of N bursts"; it exits 1 when k > 0',
  ];
  return { script, env: input.profile ? ['the ${VAR} secrets the profile references'] : [], notes };
}
