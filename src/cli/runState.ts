// What one run is while it goes (Run) and what it was asked (RunOptions): shared by the run itself (run.ts) and the
// way it ends on disk and on the terminal (runReports.ts) and the kinds it schedules (runScheduledKinds.ts), so none
// imports another for a type.
import type { Profile } from '../profile/schema.js';
import type { CheckResult, RunResults, RunScope } from '../report/results.js';
import type { RunRecord } from '../runner/journal.js';
import type { TargetClocks } from '../client/targetClock.js';
import type { Progress } from '../runner/progress.js';
import type { SuiteKindName } from '../suites/kind.js';
import type { HarnessFlags } from './harnessFlags.js';
import type { HarRecorder } from '../report/har.js';
import type { SuiteRunContext } from '../suites/kind.js';

export interface RunOptions extends HarnessFlags {
  profile?: string;
  service?: 'gate' | 'pools';
  grep?: string;
  depth: 'quick' | 'full';
  fault?: string[];
  reportsDir: string;
  allowLive?: boolean;
  concurrency?: string;
  scenario?: string[];
  case?: string[];
  gates?: string;
  resume?: string;
  failIncomplete?: boolean;
  /** Write every exchange of the run as HAR 1.2 (reports/<run>/run.har). */
  har?: boolean;
  /** explore, races: the request budget (--budget). */
  budget?: string;
  /** races: only these families (--family), and the replay of one: its bursts N at once (--times). */
  family?: string[];
  times?: string;
  /** certify: sign certificate.json with this Ed25519 key. */
  signKey?: string;
  /** 'github': print ::error annotations per failure. */
  annotations?: string;
  /** rampart load: split into k6 execution segments, pass k6 outputs, seed the traffic mix, emit a k6-operator bundle. */
  segments?: string;
  k6Out?: string[];
  seed?: string;
  emit?: string[];
  /** The run store: a postgres:// URL (default: RAMPART_HISTORY_URL, else reports/history.db). */
  history?: string;
  /** load, certify: judge the relative gates against this run of the store (last-certified or a run id). */
  baseline?: string;
}

/** One run as it goes: what it is, where it writes, what it has so far, and how it stops. */
export interface Run {
  kindNames: SuiteKindName[];
  command: string;
  opts: RunOptions;
  scope: RunScope;
  runId: string;
  startedAt: Date;
  reportsDir: string;
  runDir: string;
  resumed?: RunRecord;
  /** Results of checks an interrupted run finished (--resume): kept, not run again. */
  done: Map<string, CheckResult>;
  results: Omit<RunResults, 'summary'> & { summary?: RunResults['summary'] };
  progress: Progress;
  stop: AbortController;
  /** Set by the first SIGINT or SIGTERM. */
  interrupted?: RunResults['interrupted'];
  clocks: TargetClocks;
  /** Known once the target is resolved. */
  timeScales?: { retryScale: number; rateWindowScale: number };
  profile?: Profile;
  /** The rate-limit scenario's checks judged on the conformance stream (each replaces the scenario's skip of the same name). */
  minuteStream?: CheckResult[];
}

/** What the run records beside the results: every exchange as HAR (--har), and a reproduction of each failure. */
export interface Recorders {
  har?: HarRecorder;
  reproduce: NonNullable<SuiteRunContext['reproduce']>;
  /** The run's one Gate pacer (every kind's). */
  pacer?: import('../client/pacer.js').Pacer;
}
