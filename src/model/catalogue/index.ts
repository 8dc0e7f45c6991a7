// The requirement catalogue: every atomic documented rule of both specs.
// One file per spec section; this index only gathers them.
import type { Requirement } from './types.js';
import { requirements as gate_errorsAuth } from './gate/errorsAuth.js';
import { requirements as gate_limits } from './gate/limits.js';
import { requirements as gate_sessions } from './gate/sessions.js';
import { requirements as gate_embed } from './gate/embed.js';
import { requirements as gate_versioning } from './gate/versioning.js';
import { requirements as gate_capabilities } from './gate/capabilities.js';
import { requirements as gate_branding } from './gate/branding.js';
import { requirements as gate_customers } from './gate/customers.js';
import { requirements as gate_quotesTransactions } from './gate/quotesTransactions.js';
import { requirements as gate_rails } from './gate/rails.js';
import { requirements as gate_webhookOperations } from './gate/webhookOperations.js';
import { requirements as gate_events } from './gate/events.js';
import { requirements as gate_delivery } from './gate/delivery.js';
import { requirements as pools_authErrors } from './pools/authErrors.js';
import { requirements as pools_discovery } from './pools/discovery.js';
import { requirements as pools_quotes } from './pools/quotes.js';
import { requirements as pools_transact } from './pools/transact.js';
import { requirements as pools_storedQuotes } from './pools/storedQuotes.js';
import { requirements as pools_trades } from './pools/trades.js';
import { requirements as pools_balanceFunding } from './pools/balanceFunding.js';
import { requirements as pools_events } from './pools/events.js';
import { requirements as pools_limits } from './pools/limits.js';

export const CATALOGUE: readonly Requirement[] = [
  ...gate_errorsAuth,
  ...gate_limits,
  ...gate_sessions,
  ...gate_embed,
  ...gate_versioning,
  ...gate_capabilities,
  ...gate_branding,
  ...gate_customers,
  ...gate_quotesTransactions,
  ...gate_rails,
  ...gate_webhookOperations,
  ...gate_events,
  ...gate_delivery,
  ...pools_authErrors,
  ...pools_discovery,
  ...pools_quotes,
  ...pools_transact,
  ...pools_storedQuotes,
  ...pools_trades,
  ...pools_balanceFunding,
  ...pools_events,
  ...pools_limits,
];

const byId = new Map<string, Requirement>();
for (const r of CATALOGUE) {
  if (byId.has(r.id)) throw new Error(`duplicate requirement id in the catalogue: ${r.id}`);
  byId.set(r.id, r);
}

export function requirement(id: string): Requirement | undefined {
  return byId.get(id);
}

export function requirementsOf(service?: 'gate' | 'pools'): Requirement[] {
  return CATALOGUE.filter((r) => !service || r.service === service);
}

export type { Requirement } from './types.js';
