// The families of operations an exploration draws its sequences from: each the documented operations on one
// group of objects that share state (one resource family), weighted towards what changes state, with the
// profile's permission (a Gate partner, a funded pools partner with a quote).
//
// Weights: every sequence opens with the family's object (`opening`), and further creates are drawn less, so the
// steps dwell on few objects and reach their deeper states. A step that moves an object is drawn most, and draws with it a read-back (the object, its list, the
// balance) more often than not, so a sequence holds a read before and after most changes — where a cache or a second
// copy that one path forgot shows. Reads alone, replays and conflicts are drawn less.
import type fc from 'fast-check';
import type { Capabilities } from '../model.js';
import type { ExploreCommand } from './command.js';
import { brandingCommands } from './gate/branding.js';
import { customerCommands } from './gate/customers.js';
import { deliveryCommands } from './gate/deliveries.js';
import { railCommands } from './gate/rails.js';
import { sessionCommands } from './gate/sessions.js';
import { balanceCommands } from './pools/balance.js';
import { quoteCommands } from './pools/quotes.js';
import { tradeCommands } from './pools/trades.js';

/** A family of operations one sequence draws from: the objects they share, and when the profile allows them. */
export interface Family {
  name: string;
  service: 'gate' | 'pools';
  commands: () => fc.Arbitrary<ExploreCommand>[];
  /** Weights per command, in the order `commands` gives them: state changes first. */
  weights: number[];
  /**
   * The commands a sequence opens with (by index in `commands`): those that make the family's first object. Every
   * sequence opens with one, so none is spent on steps that cannot apply to an empty model, and a shrunk sequence
   * keeps the object its steps act on.
   */
  opening: number[];
  /** The operations that read and move nothing (its reads and lists, by index in `commands`): the rest are changes. */
  views: number[];
  /** The operations that send a request of the sequence again (a replay, a conflict, a duplicate): pairs.ts walks each around each change. */
  repeats?: number[];
  /**
   * The operation whose request the repeats send again, when the opening is not it (a pay-out, replayed; the
   * opening only locks its quote): a repeat's small sequence makes it first, or the repeat has nothing to repeat.
   */
  origin?: number;
  /**
   * Why the profile does not let the family act at all (besides its service), or undefined when it does: its sequences
   * would all be empty, so it is left out and the report says why.
   */
  when?: (can: Capabilities) => string | undefined;
}

export const FAMILIES: Family[] = [
  // create, retrieve, cancel, replay, conflict, complete, expire (sandbox), bootstrap, list, embed refresh. A cancel (late
  // ones too) weighs most: a completion past expires_at may rightly expire the session (gate.session.lateCompletion), a
  // cancel may not. The refresh repeats the embed token's request around a change (a completion, a cancel).
  { name: 'sessions', service: 'gate', commands: sessionCommands, weights: [2, 2, 6, 1, 1, 3, 4, 3, 2, 2], opening: [0], views: [1, 8], repeats: [3, 4, 9] },
  // create, retrieve, PATCH, delete, duplicate email, list, replay of the creation, duplicate external_id
  { name: 'customers', service: 'gate', commands: customerCommands, weights: [3, 2, 6, 3, 1, 2, 1, 1], opening: [0], views: [1, 5], repeats: [4, 6, 7] },
  // read, PATCH, PATCH refused
  { name: 'branding', service: 'gate', commands: brandingCommands, weights: [3, 5, 2], opening: [1], views: [0] },
  // POST /webhooks/test (the first points the webhook_url), list, replay
  {
    name: 'webhook deliveries',
    service: 'gate',
    commands: deliveryCommands,
    weights: [5, 4, 1],
    opening: [0],
    views: [1],
    repeats: [2],
    when: (can) => (can.webhooks ? undefined : 'the profile declares no gate.triggers.configureWebhook: no delivery can be made on both sides'),
  },
  // Each rail on its own side of the quote: lock, pay out (or pay in), expire (sandbox), replay, read the quote, read
  // the pay-out (or pay-in), another redemption on the same session, (pay-outs) another body under a pay-out's key.
  {
    name: 'pay-outs',
    service: 'gate',
    commands: () => railCommands('off_ramp'),
    weights: [2, 4, 4, 3, 1, 1, 1, 1],
    opening: [0],
    views: [4, 5],
    repeats: [3, 7],
    origin: 1,
    when: (can) => can.why.rails,
  },
  {
    name: 'pay-ins',
    service: 'gate',
    commands: () => railCommands('on_ramp'),
    weights: [2, 4, 4, 3, 1, 1, 1],
    opening: [0],
    views: [4, 5],
    repeats: [3],
    origin: 1,
    when: (can) => can.why.rails ?? (can.payIn ? undefined : 'the profile declares no gate.triggers.payInBody: no pay-in can be sent'),
  },
  // The pools quote's own lifecycle (active, then rejected, consumed or expired; its reads): the quote state table.
  {
    name: 'pools quotes',
    service: 'pools',
    commands: () => [...quoteCommands(), tradeCommands()[0]!, ...balanceCommands()],
    // firm, indicative, read, reject | transact | balance
    weights: [2, 1, 1, 4, 2, 1],
    opening: [0],
    views: [2, 5],
  },
  // The trade's lifecycle from a transact: replays and conflicts, the sandbox's outcome, polls, reads, the filtered
  // list, the balance each moves.
  {
    name: 'pools trades',
    service: 'pools',
    commands: () => [...quoteCommands(), ...tradeCommands(), ...balanceCommands()],
    // firm, indicative, read, reject | transact, replay, conflict, settle (sandbox) and poll, poll, read, list, list
    // bounded to a trade's createdAt | balance (a transact after the opening mostly takes a quote the sequence consumed:
    // both readings, and what the balance does)
    weights: [1, 1, 1, 2, 8, 2, 1, 12, 2, 1, 2, 1, 1],
    // a transact (its fresh variant requests the quote itself)
    opening: [4],
    views: [2, 9, 10, 11, 12],
    repeats: [5, 6],
  },
];

/**
 * Steps one sequence of a family may draw: three times its operations, at least eight and at most 24. A family with
 * many operations and states needs longer sequences to reach its deeper states than one with two (branding), and a
 * long sequence pays once for the object it opens with (a session and a locked quote are three requests); past 24 a
 * divergence costs more to shrink than the budget keeps for it. Steps that do not apply are skipped, so about half
 * as many run.
 */
export const maxCommandsOf = (f: Family): number => Math.min(24, Math.max(8, 3 * f.weights.length));
