// A race family: one kind of burst of concurrent documented requests on objects one short sequence made (a session,
// a signed quote, a customer, a pools quote, a balance), behind one interface, one small file each under families/
// (as Toxiproxy's toxics are). A family says what it needs from the profile (needs, so a profile that cannot act on
// it skips it with the reason), the steps before the burst, the burst itself, the reads after it and how each answer
// is compared; the round (round.ts) fires it at the target and judges it against fresh oracle worlds (judgeRound.ts).
import type { ApiRequest, Exchange } from '../client/types.js';
import type { OutcomeRule } from '../explore/divergence.js';
import type { RequirementId } from '../model/catalogue/index.js';
import type { RouteGroup } from '../model/limits.js';
import type { NeedName } from '../model/needs.js';
import type { OpenPointId } from '../model/openPoints/index.js';
import type { ResourceRelations } from '../model/relations.js';
import type { RaceSide, Service } from './side.js';

/** A round's requests to the target: Gate ones by route group (each fills its own first window), pools ones. */
export type RoundCost = Partial<Record<RouteGroup | 'pools', number>>;

/** How many requests a round costs. */
export const costOf = (c: RoundCost): number => Object.values(c).reduce((a, n) => a + (n ?? 0), 0);

/** One request of a burst, built from one side's objects (the same on both sides but for the ids they name). */
export interface BurstRequest {
  service: Service;
  /** What it is, for the finding ("POST /rails/pay_outs, key 2"). */
  label: string;
  request: ApiRequest & { idempotencyKey?: string };
}

/** How one answer (of the burst, or a read after it) is compared with the oracle's: its outcome, then its fields. */
export interface AnswerRule {
  /** An answer the specs do not determine at all (a sandbox control's own): its request's effect is judged by the reads after. */
  uncompared?: true;
  outcome: OutcomeRule;
  /** The fields a success determines (src/model/relations.ts); absent: the outcome alone. */
  relations?: ResourceRelations;
  /** The rule a field's divergence breaks in this step, where it is not the resource's own. */
  requirementOf?: Partial<Record<string, RequirementId>>;
}

/** A read after the burst on one side, and how it is compared. */
export interface AfterRead {
  label: string;
  exchange: Exchange;
  rule: AnswerRule;
  /**
   * What the family derives from this side's own reads, compared as it is (the customers holding the round's email,
   * the refunds a balance shows in trade amounts): a count the specs determine where the values behind it are each
   * side's own (prices, fees, page sizes). Compared in place of the answer's fields.
   */
  value?: unknown;
  /** The rule a difference in `value` breaks. */
  valueRule?: RequirementId;
}

/** What one round shares on both sides: its tag (emails, external ids), its Idempotency-Keys, its amounts. */
export interface RoundContext {
  /** Unique to the round: every email, external id and reference it sends carries it. */
  tag: string;
  /** The round's Idempotency-Keys (UUIDs, new in every run), the same on the target and on every oracle world. */
  keys: readonly string[];
}

/** The objects a family's setup made on one side, and the names of the ids they hold (the refs answers are compared by). */
export interface RaceObjects {
  /** name → id on this side (a session, a quote, a customer): an answer naming one is compared by the name. */
  refs: Record<string, string>;
  [more: string]: unknown;
}

export interface RaceFamily<O extends RaceObjects = RaceObjects> {
  /** kebab-case, for --family and the replay script. */
  id: string;
  /** The file that declares it (its check's file in results, junit and the report): `familyFile(import.meta.url)`. */
  file: string;
  /** The check's name: what the burst is and what it must show. */
  name: string;
  service: Service;
  /** The rules the burst judges; a finding fails the one its parting step breaks. */
  requirements: readonly RequirementId[];
  /** The needs (src/needs) whose actors it acts as: its Gate partner, its pools partner. */
  partner: { gate?: NeedName; pools?: NeedName };
  /** What it needs beyond its partners and its requirements' needs: a missing need skips it with that need's reason. */
  needs?: readonly NeedName[];
  /**
   * Bursts per round of the run (default 1): a family whose race can show only in one order of arrival (the completion
   * reaching the session before the cancel) fires more, so a run meets that order as often as the others' races.
   */
  repeat?: number;
  /** Requests it sends the target per round (setup, burst, reads after), by Gate route group and pools, for the plan and the budget. */
  cost: RoundCost;
  /**
   * Open points whose documented readings decide an answer of the burst or a read after it (a poll that settles now
   * or later, a reservation drawing a fee): the oracle takes each reading in turn, and one that explains the burst
   * passes it.
   */
  readings?: readonly OpenPointId[];
  /** The steps before the burst, on one side: the objects the burst acts on. */
  setup(side: RaceSide, round: RoundContext): Promise<O>;
  /** The world an oracle replay starts from, as the target's own setup showed it (its pools balance). */
  world?(target: O): { poolsOpeningBalance?: string };
  burst(objects: O, round: RoundContext): BurstRequest[];
  /** How the answer of the burst's i-th request is compared. */
  rule(i: number): AnswerRule;
  /** The reads after the burst (each answered before the next is sent), on one side. */
  after(side: RaceSide, objects: O, round: RoundContext): Promise<AfterRead[]>;
  /** On the target alone, once judged: what the race drew from the partner given back (reservations released). */
  cleanup?(side: RaceSide, objects: O, round: RoundContext): Promise<void>;
}

/** The repository path of a family file, from its module URL. */
export function familyFile(url: string): string {
  const name = url.split('/').pop()!.replace(/\.js$/, '.ts');
  return `src/races/families/${name}`;
}

/** A family, typed by its objects, as the list of families holds it. */
export function defineFamily<O extends RaceObjects>(f: RaceFamily<O>): RaceFamily {
  return f as unknown as RaceFamily;
}
