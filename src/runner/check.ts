// A check is a small declared unit: the requirement ids it covers, the needs
// it adds to theirs, and a body. Like Playwright's fixtures, the body receives
// exactly the needs the check and its requirements declare, provided by the
// runner from the profile (src/needs/), or the check is skipped with the
// reason the missing need gives. `t` carries the tools every check has.
import type { ZodType } from 'zod';
import type { TargetClock } from '../client/targetClock.js';
import type { Exchange } from '../client/types.js';
import type { EntryNeeds, RequirementId } from '../model/catalogue/define.js';
import type { NeedName, NeedRegistry } from '../model/needs.js';
import type { Profile } from '../profile/schema.js';

export type { RequirementId };

/** What one check receives: its needs and its requirements' needs, by name. */
export type NeedsOf<N extends NeedName> = { [K in N]: NeedRegistry[K] };

export interface CheckDef<R extends RequirementId = RequirementId, N extends NeedName = NeedName> {
  /** Human name, unique within its suite: "cancel of a terminal session gives 409". */
  name: string;
  /** Requirement ids from the catalogue that this check covers. */
  requirements: readonly R[];
  /** Needs beyond those its requirements declare (each one a file under src/needs/). */
  needs?: readonly NeedName[];
  /** 'full' checks run only at --depth full; a requirement's depth applies as well. */
  depth?: 'quick' | 'full';
  /**
   * Time budget in ms spent waiting on the target (answers, webhooks, documented
   * expiries); time queued behind rampart's own pacing or leases never counts.
   * Default 60 s. Exceeding it fails the check, naming what it waited for.
   */
  budgetMs?: number;
  /** Run after the other checks of the run have started (it reads state they build up, e.g. a full default page). */
  late?: boolean;
  /**
   * For the plan, where calibration cannot measure it (hours of real time): the documented wait
   * this check must sit through on this profile (ms), or the reason it will skip on it.
   */
  plannedWait?: (profile: Profile) => number | { skip: string };
  run(needs: NeedsOf<N>, t: CheckTools): Promise<void>;
}

/**
 * Declare a check. The body's first argument is typed from `needs` and from
 * the needs the named requirements declare in the catalogue.
 */
export function check<const R extends RequirementId, const N extends NeedName = never>(def: {
  name: string;
  requirements: readonly R[];
  needs?: readonly N[];
  depth?: 'quick' | 'full';
  budgetMs?: number;
  late?: boolean;
  plannedWait?: (profile: Profile) => number | { skip: string };
  run(needs: NeedsOf<N | EntryNeeds<R>>, t: CheckTools): Promise<void>;
}): CheckDef {
  return def as unknown as CheckDef;
}

export interface SuiteDef {
  service: 'gate' | 'pools';
  /** Spec section the file mirrors, e.g. "Endpoints > Sessions". */
  section: string;
  checks: CheckDef[];
}

export function defineSuite(suite: SuiteDef): SuiteDef {
  return suite;
}

export interface Expectations {
  /** The status is one of `expected`. Returns the exchange for chaining. */
  status(ex: Exchange, expected: number | number[], requirement: RequirementId): Exchange;
  /**
   * A documented error: the status, the envelope (type, code string, message string,
   * request_id string, doc_url string|null, statusCode mirroring the status) and the
   * X-Request-Id header equal to request_id. `code` is checked only when given.
   */
  error(ex: Exchange, status: number, type: string, opts: { code?: string; requirement: RequirementId }): Exchange;
  /** The JSON body parses with the schema (unknown fields tolerated). Returns the parsed value. */
  schema<T>(ex: Exchange, schema: ZodType<T>, requirement: RequirementId): T;
  /** Deep-equal, with a message naming the property. */
  equal(actual: unknown, expected: unknown, message: string, opts: { requirement: RequirementId; exchange?: Exchange }): void;
  /** A condition that must hold. */
  that(cond: unknown, message: string, opts: { requirement: RequirementId; expected?: unknown; actual?: unknown; exchange?: Exchange }): asserts cond;
}

/** The tools every check has, whatever it needs. */
export interface CheckTools {
  readonly profile: Profile;
  readonly depth: 'quick' | 'full';
  /** Aborted when the check's budget is spent, the run is interrupted or the target is down. */
  readonly signal: AbortSignal;
  readonly expect: Expectations;
  /** Record an observation: "not shown" behaviour, or which documented reading the target chose. */
  observe(topic: string, value: unknown, note?: string): void;
  /**
   * Wait. 'target' waits are documented behaviour of the target (a TTL, a lifetime, a
   * settlement) and count against the budget; 'harness' waits are rampart's own
   * (a back-off between re-measurements) and do not.
   */
  sleep(ms: number, label: string, kind?: 'target' | 'harness'): Promise<void>;
  /** Stop the check as skipped: the profile or machine lacks what it needs. */
  skip(reason: string): never;
  /**
   * Stop the check as unverified: it ran, but the behaviour it judges could not be
   * reached on this target (say why, and what would reach it). Never a pass.
   */
  unverified(reason: string): never;
  /** Account a wait of the check's own making as harness time (not the target's). */
  harness<T>(what: string, p: Promise<T>): Promise<T>;
  /** A service's clock and round trips as the run's answers tell them (shared by every check of the run). */
  targetClock(service: 'gate' | 'pools'): TargetClock;
  /**
   * A fixture of the run (Playwright's worker fixtures): the value every check asking under `key` shares — an
   * object created once and read by the checks that only read it, so a partner with one key does not pay for it
   * in every check. The first asker makes it with its own requests and assertions; the others wait for it as
   * rampart's time. When making it failed (the maker's failure), a later asker ends unverified. The key names
   * the partner (and the kind of object): never share across tenants.
   */
  shared<T>(key: string, make: () => Promise<T>): Promise<T>;
  /**
   * Offer a value of this check's making to later checks that can use it as it is (a session this check
   * left cancelled): `take` hands each offered value to one taker only.
   */
  offer(key: string, value: unknown): void;
  /** A value an earlier check offered under `key`, taken (no other check gets it), or undefined. */
  take<T>(key: string): T | undefined;
  /**
   * For a late check: resolves once every check of the run that is not late has ended, so what they offer or
   * cause is there to take (a wait of rampart's, never the target's). At once for any other check.
   */
  earlierChecksDone(): Promise<void>;
}
