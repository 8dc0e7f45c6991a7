// The families of operations an exploration draws its sequences from: each the documented operations on one
// group of objects that share state (one resource family), weighted towards what changes state, with the
// profile's permission (a Gate partner, a funded pools partner with a quote).
import type fc from 'fast-check';
import type { ExploreCommand } from './command.js';
import { brandingCommands } from './gate/branding.js';
import { customerCommands } from './gate/customers.js';
import { sessionCommands } from './gate/sessions.js';
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
  { name: 'sessions', service: 'gate', commands: sessionCommands, weights: [5, 4, 4, 2, 2, 3, 2, 3, 2] },
  { name: 'customers', service: 'gate', commands: customerCommands, weights: [5, 4, 5, 4, 3, 2] },
  { name: 'branding', service: 'gate', commands: brandingCommands, weights: [3, 5] },
  { name: 'pools', service: 'pools', commands: () => [...quoteCommands(), ...tradeCommands()], weights: [6, 1, 6, 5, 5, 2, 1, 3, 5, 4, 3, 2] },
];

/** Steps one sequence may hold. */
export const MAX_COMMANDS = 20;
