// The families of operations an exploration draws its sequences from: each the documented operations on one
// group of objects that share state (one resource family), weighted towards what changes state, with the
// profile's permission (a Gate partner, a funded pools partner with a quote).
//
// Weights: a step that moves an object is drawn most, and draws with it a read-back (the object, its list, the
// balance) more often than not, so a sequence holds a read before and after most changes — where a cache or a second
// copy that one path forgot shows. Reads alone, replays and conflicts are drawn less.
import type fc from 'fast-check';
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
}

export const FAMILIES: Family[] = [
  // create, retrieve, cancel, replay, conflict, complete, expire (sandbox), bootstrap, list
  { name: 'sessions', service: 'gate', commands: sessionCommands, weights: [3, 2, 4, 1, 1, 4, 4, 4, 2] },
  // create, retrieve, PATCH, delete, duplicate, list
  { name: 'customers', service: 'gate', commands: customerCommands, weights: [5, 2, 6, 3, 1, 2] },
  // read, PATCH
  { name: 'branding', service: 'gate', commands: brandingCommands, weights: [3, 5] },
  // POST /webhooks/test (the first points the webhook_url), list, replay
  { name: 'webhook deliveries', service: 'gate', commands: deliveryCommands, weights: [5, 4, 1] },
  // lock, pay out, pay in, expire (sandbox), replay, read the quote, read the pay-out or pay-in
  { name: 'rails', service: 'gate', commands: railCommands, weights: [4, 4, 3, 4, 3, 1, 1] },
  {
    name: 'pools',
    service: 'pools',
    commands: () => [...quoteCommands(), ...tradeCommands(), ...balanceCommands()],
    // firm, indicative, read, reject | transact, replay, conflict, settle (sandbox) and poll, poll, read, list | balance
    weights: [2, 1, 1, 3, 6, 2, 1, 7, 2, 1, 2, 1],
  },
];

/**
 * Steps one sequence may hold: short sequences are many for the budget, and cheap to shrink (each try runs the
 * sequence again); the defects sought show within a few steps, each with its read-backs.
 */
export const MAX_COMMANDS = 12;
