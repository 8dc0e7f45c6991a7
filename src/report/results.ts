// The shape of reports/<run-id>/results.json. Everything a run writes is
// derived from this object (junit.xml, report.html, history).
import type { TargetClockReport } from '../wire/targetTime.js';

/**
 * A check: passed; failed; skipped (the profile or machine lacks a need, or the
 * depth is too low); unverified (it ran, but the behaviour it judges could not be
 * reached on this target); not_run (the run stopped: interrupted, or the target
 * went down).
 */
export type CheckStatus = 'passed' | 'failed' | 'skipped' | 'unverified' | 'not_run';

/**
 * A requirement (computed in src/report/verdict.ts alone): passed only when every
 * check naming it ran and passed; partial when some passed and others did not
 * run (or were not selected: --grep, --case); failed beats everything;
 * out_of_scope when it needs --depth full.
 */
export type RequirementStatus = 'passed' | 'failed' | 'partial' | 'skipped' | 'unverified' | 'not_run' | 'not_covered' | 'out_of_scope';

/**
 * The headline of a run. CERTIFIED is the word of a whole run alone (`rampart certify`, unnarrowed); a partial
 * run (one kind, --service, --grep, --scenario, --case) where everything in its scope passed is PASSED.
 */
export type Verdict = 'CERTIFIED' | 'PASSED' | 'NOT CERTIFIED' | 'INCOMPLETE' | 'INTERRUPTED';

/** What a run covered: the suite kinds it ran and every filter that narrowed them. */
export interface RunScope {
  kinds: ('conformance' | 'chaos' | 'load' | 'explore' | 'races')[];
  depth: 'quick' | 'full';
  service?: 'gate' | 'pools';
  grep?: string;
  scenarios?: string[];
  cases?: string[];
  /** `rampart certify`, every kind, nothing narrowed: the only run that can be CERTIFIED or sign a certificate. */
  whole: boolean;
  /** For a partial run, what made it one: "conformance only", "service gate", "grep \"x\"" … */
  partial?: string;
  /**
   * The performance gates of a run with load (src/load/gates.ts): the file (--gates, or rampart's own), its
   * sha256 and content, and what in it is looser than rampart's defaults. Looser gates never certify: the run
   * ends "PASSED — custom gates" at best, and --sign-key is refused for it.
   */
  gates?: GatesOfRun;
}

/** The gates a run used (recorded in results.json's scope and in the certificate). */
export interface GatesOfRun {
  file: string;
  sha256: string;
  content: unknown;
  /** Each value looser than rampart's defaults ("p95Ms.read60 700 ms > 300 ms"); empty: the defaults or stricter. */
  looser: string[];
}

/** Why a check failed: only an assertion judges the rule; the rest say the check could not finish. */
export type FailureKind = 'assertion' | 'timeout' | 'transport' | 'crash';

/** One HTTP exchange as the report shows it, secrets already redacted. */
export interface ExchangeRecord {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  status?: number;
  responseHeaders?: Record<string, string>;
  responseBody?: string;
  requestId?: string;
  durationMs: number;
  error?: string;
}

export interface CheckFailure {
  message: string;
  /**
   * assertion: an expectation about the target failed (a performance gate too); timeout: the check's budget or a
   * request's time ran out; transport: no answer (refused, reset); crash: the check or its k6 run threw or died.
   */
  kind?: FailureKind;
  requirement?: string;
  expected?: string;
  actual?: string;
  requestId?: string;
  exchanges?: ExchangeRecord[];
  /** The target gave no answer at all (refused, reset, timed out). */
  transport?: boolean;
  /** A ready command that replays the failing request (secrets as the profile's ${VAR} names), and the steps before it. */
  reproduce?: { command: string; env: string[]; notes: string[]; bodyFile?: string; steps?: string };
}

export interface CheckResult {
  name: string;
  suite: 'conformance' | 'load' | 'chaos' | 'explore' | 'races';
  file?: string;
  requirements: readonly string[];
  status: CheckStatus;
  /** Why it was skipped, unverified or not run. */
  reason?: string;
  /** The need (or machine/tool) whose absence skipped it, when one did. */
  missing?: string;
  durationMs: number;
  /** Time waiting on the target (counted against the budget) and queued behind rampart's own pacing (not counted). */
  budget?: { countedMs: number; uncountedMs: number; limitMs: number };
  /** Requests the check sent, per service. */
  requests?: { gate: number; pools: number };
  failure?: CheckFailure;
}

export interface Observation {
  /** The requirement or topic observed ("not shown" behaviour, a reading chosen between two documented ones). */
  topic: string;
  service: 'gate' | 'pools';
  check?: string;
  value: unknown;
  note?: string;
}

export interface RequirementResult {
  id: string;
  service: 'gate' | 'pools';
  title: string;
  section: string;
  status: RequirementStatus;
  reason?: string;
  checks: { name: string; status: CheckStatus; durationMs: number; failure?: CheckFailure; reason?: string }[];
  /** For partial: what did not run, with reasons. */
  missingParts?: string[];
}

export interface Summary {
  verdict: Verdict;
  /** One line: why the verdict is not CERTIFIED (grouped reasons), or what was certified. */
  verdictLine: string;
  /** Failed checks no failed requirement accounts for (a performance gate, a crashed smoke or soak run), by name. */
  failedWithoutRequirement?: string[];
  passed: number;
  failed: number;
  partial: number;
  skipped: number;
  unverified: number;
  notRun: number;
  notCovered: number;
  outOfScope: number;
  checks: { passed: number; failed: number; skipped: number; unverified: number; notRun: number };
  /** Why requirements in scope were not asserted, grouped by reason, with counts. */
  incompleteReasons: { reason: string; requirements: number }[];
  /** Requests sent per requirement asserted (passed or failed). */
  requestsPerRequirement?: number;
  requests?: { gate: number; pools: number };
  /** Declared time scales other than 1 ("time-scaled ×0.01"). */
  timeScales?: { retryScale: number; rateWindowScale: number };
}

export interface RunResults {
  runId: string;
  tool: { name: 'rampart'; version: string };
  command: string;
  depth: 'quick' | 'full';
  /** The kinds and filters of the run (absent in results written before it was recorded: read by scopeOf). */
  scope?: RunScope;
  startedAt: string;
  finishedAt: string;
  profile: { name: string; baseUrls: Record<string, string | undefined> };
  environment: { node: string; platform: string; host: string; specVersion: string };
  summary: Summary;
  requirements: RequirementResult[];
  checks: CheckResult[];
  observations: Observation[];
  /** Extra artefacts per suite: k6 summaries, retry gaps, TTL samples. */
  metrics?: Record<string, unknown>;
  /** A run-level error (unreachable target, bad profile, outage, rate limited) that stopped it. */
  error?: { message: string; exitCode: number };
  /** Set when the run was interrupted (SIGINT/SIGTERM) before it finished. */
  interrupted?: { signal: string; at: string };
  /** The plan printed before traffic (lower bound, requests per key), beside what the run spent and how long it took. */
  plan?: RunPlanRecord;
  /** The run this one resumed, when it did. */
  resumedFrom?: string;
  /** rampart explore: the sequences it ran against the target and the oracle, and what it found. */
  exploration?: ExplorationRecord;
  /** rampart races: the bursts it fired, how each family went, and every burst no serial order explains. */
  races?: RacesRecord;
  /** Each target's clock against rampart's and the round trip to it, as the run's answers told them. */
  target?: { gate?: TargetClockReport; pools?: TargetClockReport };
}

/** One part of a run (a kind, a load scenario): its planned bound, the bound its own traffic forced, its wall time. */
export interface PlanPart {
  plannedSeconds?: number;
  spentSeconds?: number;
  wallSeconds?: number;
}

export interface RunPlanRecord {
  lowerBoundSeconds: number;
  spentLowerBoundSeconds?: number;
  /** The run's wall time, from the first request to the verdict. */
  wallSeconds?: number;
  /** The round trip the plan counted (ms) and where it came from. */
  roundTrip?: { ms: number; source: 'option' | 'doctor' | 'none' };
  /** Per kind, and per load scenario: so a slow part shows where its time went. */
  kinds?: Partial<Record<'conformance' | 'chaos' | 'load' | 'explore' | 'races', PlanPart>>;
  scenarios?: Record<string, PlanPart>;
}

/** One step of an explored sequence: its name and each side's exchanges (secrets masked). */
export interface ExploredStep {
  n: number;
  label: string;
  target: ExchangeRecord[];
  oracle: ExchangeRecord[];
}

/** Where the target and the oracle parted after the same sequence, shrunk to the shortest that still parts. */
export interface FindingRecord {
  /** The rule it breaks; absent: no requirement of the catalogue names it (a gap in the catalogue, failed all the same). */
  requirement?: string;
  what: string;
  /** The step (1-based) whose answers part. */
  step: number;
  target: unknown;
  oracle: unknown;
  steps: ExploredStep[];
  family: string;
  /** fast-check's seed and shrink path of the failing sequence: `rampart explore --seed` replays it. */
  seed: number;
  path: string;
  /** Steps of the sequence when it first parted, before shrinking. */
  firstSeenSteps: number;
  /** It parted again when run once more on fresh objects. */
  confirmed: boolean;
  /** How its re-run went: parted again; reached the step and did not part (intermittent); or could not reach it, and why. */
  rerun?: { outcome: 'parted again' | 'did not part' | 'not re-run'; why?: string };
  /** A bash script of the target's side of the steps, in order, each id and Idempotency-Key filled in from the steps before. */
  replay: { script: string; env: string[]; notes: string[] };
}

/** What one family of explored operations walked in the search, or why the profile leaves it out. */
export interface ExploredFamily {
  service: 'gate' | 'pools';
  /** Sequences that applied at least one step. */
  sequences: number;
  steps: number;
  /** Requests its sequences sent the target. */
  requests: number;
  /** Its small interactions (each view around each change, each repeated request around each change): in all, run, walked whole. */
  pairs?: { total: number; tried: number; walked: number; views: number };
  /** Why the profile cannot act on it: it never ran. */
  leftOut?: string;
}

export interface ExplorationRecord {
  seed: number;
  budget: number;
  spent: number;
  sequences: number;
  steps: number;
  /** Sequences per family of operations that ran. */
  families: Record<string, number>;
  /** Per family of the run's services: sequences, steps and requests applied, or why the profile leaves it out. */
  byFamily?: Record<string, ExploredFamily>;
  /** Per lane (a partner, all its keys, at once with the others): its budget and what it spent. */
  lanes?: { name: string; service: 'gate' | 'pools'; keys: number; budget: number; spent: number; sequences: number }[];
  /** Requests the target was sent, per key (keys named by their order, never by any part of the key). */
  byKey?: Record<string, number>;
  /** The requirements the sequences' comparisons judged (the explore check names those that held). */
  judged?: string[];
  /** Distinct transitions walked: a step as its label names it (object numbers left out), with the target's statuses. */
  transitions?: number;
  /** Requests spent when the first divergence showed. */
  foundAfter?: number;
  /** What the oracle was (the embedded reference from the target's profile, on loopback). */
  oracle: string;
  findings: FindingRecord[];
  /** An intermittent divergence: its re-run reached its step and did not part — its requirement unverified, the run INCOMPLETE. */
  flaky?: FindingRecord;
  /** Why the exploration judged nothing. */
  unjudged?: string;
  /** Why it could not go on (the run's stop, no answer, rate-limited, a full hour window): the run ends as every kind does on it. */
  stopped?: { kind: string; why: string };
  crash?: string;
}

/** One request of a race's burst: when it left and came back (ms after the burst's first send), and its answer. */
export interface RaceRequestRecord {
  label: string;
  /** Its place in the order of sending (0 first). */
  sentAs: number;
  sentMs: number;
  /** Absent: no answer came (a timeout, a reset). */
  answeredMs?: number;
  /** applied (its answer is determined), maybe (5xx, an in-flight 409, no answer), refused (429). */
  effect: 'applied' | 'maybe' | 'refused';
  exchange?: ExchangeRecord;
  noAnswer?: string;
}

/** A request outside the burst (the steps before it, the reads after it), on one side. */
export interface RaceStepRecord {
  label: string;
  exchange: ExchangeRecord;
}

/** A burst no serial order that keeps real time explains: everything a developer needs to act on it. */
export interface RaceFindingRecord {
  family: string;
  /** The check that failed on it (its family's). */
  check: string;
  /** The rule the parting step breaks. */
  requirement?: string;
  /** One line: what the burst showed. */
  what: string;
  /** The round of the family it showed in, and the run's seed (`rampart races --seed` replays the order of sending). */
  round: number;
  seed: number;
  /** When the burst's first request left (ISO 8601, rampart's clock). */
  startedAt: string;
  /** The target's steps before the burst (the objects it raced on). */
  steps: RaceStepRecord[];
  burst: RaceRequestRecord[];
  /** What the target read after the burst. */
  after: RaceStepRecord[];
  /** Why no serial order explains it: the closest order, how much of it matched, and where it parts. */
  closest: {
    order: number[];
    /** Requests of the order whose answers matched before it parted (the reads after count as one more). */
    matched: number;
    /** The burst's request whose answer parts (its index); absent: the reads after the burst. */
    request?: number;
    what: string;
    target: unknown;
    oracle: unknown;
    /** The documented readings the oracle took for it (open point → choice), when the family names any. */
    reading: Record<string, string>;
    /** The oracle's answers in that order, and its reads after. */
    oracleAnswers: { request: number; exchange: ExchangeRecord }[];
    oracleAfter: RaceStepRecord[];
  };
  /** Candidate orders tried (every reading). */
  tried: number;
  /** A script that fires the burst N times in parallel and says how often the finding showed. */
  replay: { script: string; env: string[]; notes: string[] };
}

/** How one race family went in the run. */
export interface RaceFamilyRecord {
  service: 'gate' | 'pools';
  requirements: string[];
  status: CheckStatus;
  rounds: number;
  /** Bursts explained by a serial order. */
  explained: number;
  /** Requests it sent the target. */
  requests: number;
  reason?: string;
}

export interface RacesRecord {
  seed: number;
  /** Rounds each family was asked for. */
  rounds: number;
  bursts: number;
  /** Candidate orders replayed on fresh oracle worlds. */
  ordersTried: number;
  families: Record<string, RaceFamilyRecord>;
  findings: RaceFindingRecord[];
  /** What the oracle was. */
  oracle: string;
}
