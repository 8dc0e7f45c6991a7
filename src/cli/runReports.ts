// How a run ends on disk and on the terminal: its directory written (HAR, results, reports, and last the
// certificate of a whole run), CI told, and the verdict printed with where to read more.
import { join } from 'node:path';
import { redact } from '../secrets/index.js';
import type { Profile } from '../profile/schema.js';
import type { HarRecorder } from '../report/har.js';
import type { RunResults, RunScope } from '../report/results.js';
import { customGatesNote, headlineOf } from '../report/verdict.js';
import { writeRun } from '../report/writeRun.js';
import { describeTargetClock } from '../wire/targetTime.js';
import { writeCertificate as writeCertificateImpl } from '../report/certificate.js';
import type { Run } from './runState.js';
import type { RunHistory } from '../history/runHistory.js';
import type { Night } from '../history/night.js';

/** The run directory written (HAR, results, reports, and last the certificate of a whole run), and CI told. */
export async function writeReports(
  run: Run,
  full: RunResults,
  har: HarRecorder | undefined,
  history?: RunHistory,
): Promise<{ dir: string; certificate?: { path: string; signed: boolean }; night?: Night; store?: string }> {
  if (har) har.write(join(run.runDir, 'run.har'));
  // Only a whole run writes a certificate (a partial one was refused its signing key above).
  let certificate: { path: string; signed: boolean } | undefined;
  const { dir, night } = await writeRun(full, {
    reportsDir: run.reportsDir,
    // The store the run opened before its traffic (none when even the default file could not be used).
    history: history?.store ? { store: history.store, context: history.context } : false,
    // The certificate hashes every other report file: it is written last.
    finalize: run.scope.whole
      ? (d, safe) => {
          certificate = writeCertificateSync(d, safe, run.opts.signKey, run.profile);
        }
      : undefined,
  });
  if (process.env.GITHUB_STEP_SUMMARY) (await import('../report/github.js')).writeGithubStepSummary(full, process.env, night);
  if (run.opts.annotations === 'github')
    for (const l of (await import('../report/github.js')).githubAnnotations(full, { night })) process.stdout.write(l + '\n');
  return { dir, certificate, ...(night ? { night } : {}), ...(history?.store ? { store: history.store.where } : {}) };
}

/** The verdict and where to read more: stdout; a run error's one line: stderr. */
export function printVerdict(
  run: Run,
  full: RunResults,
  written: { dir: string; certificate?: { path: string; signed: boolean }; night?: Night; store?: string },
  har: HarRecorder | undefined,
): void {
  const { scope, opts, command } = run;
  const { dir, certificate } = written;
  const s = full.summary;
  const secs = ((Date.parse(full.finishedAt) - Date.parse(full.startedAt)) / 1000).toFixed(1);
  if (full.error) process.stderr.write(redact(`rampart: ${full.error.message}`) + '\n');
  process.stdout.write(
    [
      headlineOf(s),
      ...(scope.whole || s.verdict === 'PASSED' ? [] : [`scope: partial run (${scope.partial}) — only rampart certify, nothing narrowed, can be CERTIFIED`]),
      ...(scope.gates && opts.gates ? [gatesLine(scope.gates, opts.gates)] : []),
      `requirements: ${s.passed} passed, ${s.failed} failed, ${s.partial} partial, ${s.skipped} skipped, ${s.unverified} unverified, ${s.notRun} not run, ${s.notCovered} not covered, ${s.outOfScope} out of scope at --depth ${opts.depth}`,
      `checks: ${s.checks.passed} passed, ${s.checks.failed} failed, ${s.checks.skipped} skipped, ${s.checks.unverified} unverified, ${s.checks.notRun} not run · ${secs}s${s.requestsPerRequirement !== undefined ? ` · ${s.requestsPerRequirement} requests per requirement asserted` : ''}`,
      ...(full.target ? [describeTargetClock(full.target)] : []),
      ...(full.plan
        ? [
            `time: ${secs} s against a lower bound of ${full.plan.spentLowerBoundSeconds ?? full.plan.lowerBoundSeconds} s${full.plan.spentLowerBoundSeconds !== undefined ? ' (what the windows and documented waits forced for the requests this run sent)' : ' (planned)'}`,
          ]
        : []),
      ...(s.verdict === 'INTERRUPTED' ? [`resume with: rampart ${command} --resume ${dir}`] : []),
      ...historyLine(written),
      `report: ${dir}/report.html`,
      ...(certificate ? [`certificate: ${certificate.path} (${certificate.signed ? 'signed' : 'unsigned: pass --sign-key to sign it'})`] : []),
      ...(har ? [`HAR: ${dir}/run.har (${har.size} exchanges)`] : []),
    ].join('\n') + '\n',
  );
}

/** The --gates file the run judged load by: rampart's defaults or stricter, or looser (then never CERTIFIED). */
function gatesLine(gates: NonNullable<RunScope['gates']>, file: string): string {
  const custom = customGatesNote({ gates });
  return `gates: ${file} (sha256 ${gates.sha256.slice(0, 12)}…) — ${custom ? `${custom}: never CERTIFIED, never signed` : "rampart's defaults or stricter"}`;
}

function writeCertificateSync(dir: string, results: RunResults, signKey: string | undefined, profile: Profile | undefined) {
  return writeCertificateImpl(dir, results, { signKeyFile: signKey, profile });
}

/** Where the run was recorded, and how its failures stand against the runs before it. */
function historyLine(written: { night?: Night; store?: string }): string[] {
  if (!written.store) return [];
  const n = written.night;
  if (!n) return [`history: ${written.store} (the run was not recorded: see above)`];
  const f = n.group.failures[n.at];
  const count = (c: string) => [...(f?.requirements.values() ?? []), ...(f?.checks.values() ?? [])].filter((x) => x.class === c).length;
  const failures =
    f && f.requirements.size + f.checks.size
      ? ` — failures: ${count('new')} new, ${count('intermittent')} intermittent, ${count('still failing')} still failing`
      : '';
  return [
    `history: run ${n.at + 1} of this target and scope in ${written.store}${failures}${n.baseline ? `; baseline ${n.baseline.runId}` : ''} (rampart history shows them)`,
  ];
}
