// The Gate service of the embedded target: one world, every area's routes and
// seeded faults. Both Gate bases (sandbox and production) share this router;
// Req.env tells them apart.
import type { Profile } from '../../profile/schema.js';
import { CLOCK_FAULTS, type Clock } from '../kit/clock.js';
import type { ActiveFaults, FaultDef } from '../kit/faults.js';
import { Router } from '../kit/http.js';
import { OUTBOX_FAULTS, type WebhookOutbox } from '../kit/outbox.js';
import { RATE_LIMIT_FAULTS } from '../kit/rateLimitFaults.js';
import { area as auth } from './auth.js';
import { area as branding } from './branding.js';
import { area as capabilities } from './capabilities.js';
import { area as customers } from './customers.js';
import { area as dashboard } from './dashboard.js';
import { area as eligibility } from './eligibility.js';
import { area as embed } from './embed.js';
import { area as errors } from './errors.js';
import { area as quotesTransactions } from './quotesTransactions.js';
import { area as rails } from './rails.js';
import { area as sandboxHelpers } from './sandboxHelpers.js';
import { area as sessions } from './sessions.js';
import { area as webhookOperations } from './webhookOperations.js';
import { BLIND_GATE_FAULTS } from './blindFaults.js';
import { RACE_GATE_FAULTS } from './raceFaults.js';
import { readingsAround } from './replies.js';
import { createGateWorld, type GateArea, type GateWorld } from './world.js';

// auth comes first: its fault stand-ins shadow the real routes while their fault is on.
export const GATE_AREAS: GateArea[] = [
  auth,
  errors,
  sessions,
  sandboxHelpers,
  embed,
  branding,
  webhookOperations,
  dashboard,
  capabilities,
  eligibility,
  customers,
  quotesTransactions,
  rails,
];

export const GATE_FAULTS: FaultDef[] = [
  ...GATE_AREAS.flatMap((a) => a.faults),
  ...OUTBOX_FAULTS,
  ...RATE_LIMIT_FAULTS,
  ...CLOCK_FAULTS.filter((f) => f.service === 'gate'),
  ...BLIND_GATE_FAULTS,
  ...RACE_GATE_FAULTS,
];

export function createGateService(deps: { profile: Profile; faults: ActiveFaults; clock: Clock; outbox: WebhookOutbox }): {
  router: Router;
  world: GateWorld;
} {
  const world = createGateWorld(deps);
  const router = new Router();
  // Every route answers with the world's readings of what its answer leaves open (its success status, additive fields).
  const on = router.on.bind(router);
  router.on = (method, pattern, handler) => on(method, pattern, readingsAround(world.profile, method, pattern, handler));
  for (const a of GATE_AREAS) a.register(router, world);
  return { router, world };
}
