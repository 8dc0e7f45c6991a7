// What a run is, so that --resume continues that run and no other: its kinds and filters (the run record), the
// target it was judged against (the profile, hashed with its base URLs) and, with load, the gates its
// thresholds were judged by. A resume whose profile or gates differ would add another target's results to the
// finished ones — a report, even a certificate, of checks no single target passed — so it is refused before
// anything is written.
import { createHash } from 'node:crypto';
import { redact } from '../secrets/index.js';
import { EXIT } from '../exitCodes.js';
import { loadProfile } from '../profile/load.js';
import { canonicalJson } from '../report/canonicalJson.js';
import type { GatesOfRun } from '../report/results.js';
import { readRunRecord, type RunRecord } from '../runner/journal.js';
import { gatesUsed } from '../load/gates.js';
import type { SuiteKindName } from '../suites/kind.js';
import { EMBEDDED_PROFILE } from './target.js';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * The identity of a run's target: sha256 of the canonical JSON of its profile as loaded (`${ENV}` references
 * resolved, so another key behind the same variable name is another target; defaults filled), base URLs included.
 * Without --profile the embedded target starts on ephemeral ports each time, so its ports never identify it: its
 * profile file (partners, keys, timing) with the base URLs' ports removed, and its seeded faults, do. Throws the
 * profile's own error (one line) when it cannot be loaded.
 */
export function profileSha256(profile: string | undefined, faults: readonly string[] | undefined): string {
  if (profile) return sha256(canonicalJson(loadProfile(profile)));
  const embedded = loadProfile(EMBEDDED_PROFILE);
  const portless = (u: string | undefined) => u?.replace(/^(\w+:\/\/[^/:]+):\d+/, '$1');
  const base = (b: { sandbox?: string; production?: string }) => ({ sandbox: portless(b.sandbox), production: portless(b.production) });
  return sha256(
    canonicalJson({
      embedded: {
        ...embedded,
        gate: { ...embedded.gate, baseUrls: base(embedded.gate.baseUrls) },
        ...(embedded.pools ? { pools: { ...embedded.pools, baseUrls: base(embedded.pools.baseUrls) } } : {}),
      },
      faults: [...(faults ?? [])].sort(),
    }),
  );
}

/** The gates of a run with load, or undefined when its file cannot be read (the run then ends on that, with its report). */
export function gatesOfRun(kinds: readonly SuiteKindName[], file: string | undefined): GatesOfRun | undefined {
  if (!kinds.includes('load')) return undefined;
  try {
    return gatesUsed(file);
  } catch {
    return undefined;
  }
}

/** The options a resume takes from the run record (a run's are these and more). */
export interface ResumableOptions {
  resume?: string;
  profile?: string;
  fault?: string[];
  depth: 'quick' | 'full';
  service?: 'gate' | 'pools';
  grep?: string;
  scenario?: string[];
  case?: string[];
  gates?: string;
}

export interface AskedRun<O extends ResumableOptions> {
  kindNames: SuiteKindName[];
  opts: O;
  resumed?: RunRecord;
  /** The target's identity (profileSha256), recorded at the start; undefined when the profile cannot be loaded (the run ends on that). */
  profileSha256?: string;
}

/** The run asked for: a new one, or (--resume) the one its directory records, its target and gates unchanged; or the exit code of a refusal. */
export function resumeOptions<O extends ResumableOptions>(kindNames: SuiteKindName[], opts: O): AskedRun<O> | number {
  if (!opts.resume) {
    let id: string | undefined;
    try {
      id = profileSha256(opts.profile, opts.fault);
    } catch {
      // A profile that cannot be loaded ends the run with its own line and report (resolveTarget).
    }
    return { kindNames, opts, profileSha256: id };
  }
  let resumed: RunRecord;
  try {
    resumed = readRunRecord(opts.resume);
  } catch (e) {
    return refused((e as Error).message);
  }
  const asked: O = {
    ...opts,
    depth: resumed.depth,
    service: resumed.service,
    grep: resumed.grep,
    profile: opts.profile ?? resumed.profile,
    fault: resumed.faults,
    scenario: resumed.scenarios,
    case: resumed.cases,
    gates: opts.gates ?? resumed.gates,
  };
  const why = differsFrom(resumed, asked);
  if (typeof why === 'string') return refused(why);
  return { kindNames: resumed.kinds, opts: asked, resumed, profileSha256: why.profileSha256 };
}

/** Why the resume would judge another target or by other gates than the run it continues, or the unchanged identity. */
function differsFrom(resumed: RunRecord, asked: ResumableOptions): string | { profileSha256: string } {
  const target = asked.profile ? `the profile ${asked.profile}` : 'the embedded target';
  if (!resumed.profileSha256)
    return `--resume refused: run ${resumed.runId} records no profile hash (written by an older rampart), so ${target} cannot be told to be the one its finished checks were judged against — start a new run`;
  let now: string;
  try {
    now = profileSha256(asked.profile, asked.fault);
  } catch (e) {
    return `--resume refused: ${(e as Error).message}`;
  }
  if (now !== resumed.profileSha256)
    return `--resume refused: ${target} (sha256 ${now.slice(0, 12)}…) is not the profile run ${resumed.runId} started with (sha256 ${resumed.profileSha256.slice(0, 12)}…${resumed.profile ? `, ${resumed.profile}` : ', the embedded target'}): its finished checks were judged against that target — resume with the same profile, base URLs and keys, or start a new run`;
  if (resumed.kinds.includes('load')) {
    const gates = gatesOfRun(resumed.kinds, asked.gates);
    if (!gates || gates.sha256 !== resumed.gatesSha256)
      return `--resume refused: the gates ${asked.gates ?? "file (rampart's defaults)"} are not the ones run ${resumed.runId} started with${resumed.gates ? ` (${resumed.gates})` : ''}: its finished load checks were judged by those — resume with the same gates file, or start a new run`;
  }
  return { profileSha256: now };
}

function refused(message: string): number {
  process.stderr.write(redact(`rampart: ${message}`) + '\n');
  return EXIT.usage;
}
