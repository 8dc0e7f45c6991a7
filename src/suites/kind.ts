// The kinds of suite — conformance, chaos, load, explore, races — behind one interface:
// each returns check results, observations and metrics; none judges them
// (src/report/verdict.ts does). `certify` is every kind.
import type { Exchange } from '../client/types.js';
import type { Pacer } from '../client/pacer.js';
import type { TargetClocks } from '../client/targetClock.js';
import type { GatePartner, PoolsPartner, Profile } from '../profile/schema.js';
import type { CheckResult, Observation } from '../report/results.js';
import type { DeclaredCheck } from '../report/verdict.js';
import type { Progress } from '../runner/progress.js';
import type { RunStats } from '../runner/run.js';

export type SuiteKindName = 'conformance' | 'chaos' | 'load' | 'explore' | 'races';

export interface SuiteRunContext {
  profile: Profile;
  depth: 'quick' | 'full';
  service?: 'gate' | 'pools';
  grep?: string;
  concurrency?: number;
  progress: Progress;
  /** Interrupt (SIGINT/SIGTERM) or outage: stop starting, end what runs. */
  signal: AbortSignal;
  /** reports/<run-id>/: where suites leave their own artefacts (k6 summaries). */
  runDir: string;
  /** Finished checks of the run being resumed, by check key. */
  done?: ReadonlyMap<string, CheckResult>;
  onResult?: (key: string, result: CheckResult) => void;
  onExchange?: (ex: Exchange, check: string) => void;
  reproduce?: import('../runner/run.js').RunChecksOptions['reproduce'];
  onOutage?: (message: string) => void;
  onRateLimited?: (message: string) => void;
  /** The partners this kind may use (disjoint from the other kinds' when they run at once). */
  partners?: { gate: GatePartner[]; pools: PoolsPartner[] };
  pacer?: Pacer;
  /** The targets' clocks, learnt from every answer of the run (every kind feeds and reads the same). */
  clocks?: TargetClocks;
  /** The run's one webhook receiver (kinds at once share its listen port). */
  receiver?: import('../webhooks/types.js').WebhookReceiver;
  /** load: scenarios, cases and the gates file. */
  scenarios?: string[];
  cases?: string[];
  gatesFile?: string;
  segments?: string;
  k6Out?: string[];
  seed?: string;
  /** explore: the oracle's profile (the embedded reference the CLI started from the target's), and the request budget. */
  oracle?: Profile;
  exploreBudget?: number;
  /** races: fresh oracle worlds (the CLI makes them: src/cli/oracle.ts oracleWorlds), its budget, --family and --times. */
  raceWorlds?: import('../races/worlds.js').RaceWorlds;
  raceBudget?: number;
  /** races inside certify: its own small budget (CERTIFY_ROUNDS), beside the other kinds. */
  raceInCertify?: boolean;
  raceFamilies?: string[];
  raceTimes?: number;
  /** How the run named its target (the profile file, or the embedded target's faults): a replay script names it the same way. */
  profileFile?: string;
  faults?: string[];
  /** load: Gate requests the run's earlier kinds sent, by partner (the traffic keys may be theirs: one hour window). */
  gateSent?: readonly { partner: string; at: number }[];
  log: (line: string) => void;
}

export interface SuiteOutcome {
  checks: CheckResult[];
  observations: Observation[];
  metrics: Record<string, unknown>;
  stats?: RunStats;
  /** Set when the target stopped answering. */
  outage?: string;
  /** Set when every key was paused by the target beyond the budget. */
  rateLimited?: string;
  /** explore: what the sequences found. */
  exploration?: import('../report/results.js').ExplorationRecord;
  /** races: the bursts it fired and what it found. */
  races?: import('../report/results.js').RacesRecord;
}

export interface SuiteKind {
  name: SuiteKindName;
  /** Checks before any traffic: a usage error here ends the run with exit 2. */
  validate?(ctx: Pick<SuiteRunContext, 'profile' | 'scenarios' | 'cases' | 'gatesFile' | 'service' | 'raceFamilies'>): Promise<void> | void;
  run(ctx: SuiteRunContext): Promise<SuiteOutcome>;
  /**
   * Every check the kind holds for the service, before --grep, --scenario or --case: the judge marks a requirement
   * partial, never passed, when one of its declared checks has no result.
   */
  declared(ctx: { service?: 'gate' | 'pools' }): Promise<DeclaredCheck[]>;
}
