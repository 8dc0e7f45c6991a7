// What a world's choice at an open point of the pools side changes in its profile besides reference.dialect (a knob
// of the reference, a value the profile then declares, a template): see src/reference/dialect.ts. The profile says
// what a partner's sandbox documents of itself (its ledger's words, its retry policy, its controls' words); the
// harness learns the rest from the answers.
import type { OpenPointId } from '../../model/openPoints/index.js';
import type { ProfileJson, WorldEffect } from '../kit/dialect.js';
import { LONGER_FEWER_RETRY } from './eventWire.js';
import { OWN_STATE_WORDS } from './sandboxHelpers.js';

/** rampart's values → the pool-state control's own words, as the profile's trigger maps them. */
const OWN_STATE_VALUES = Object.fromEntries(Object.entries(OWN_STATE_WORDS).map(([own, state]) => [state, own]));

const pools = (profile: ProfileJson): ProfileJson | undefined => profile.pools;

export const POOLS_WORLD_EFFECTS: Partial<Record<OpenPointId, WorldEffect>> = {
  'pools.balance.opening': (profile, choice) => {
    profile.reference = { ...(profile.reference ?? {}), poolsOpeningBalance: choice };
  },
  'pools.balance.fees': (profile, choice) => {
    profile.reference = { ...(profile.reference ?? {}), poolsBalanceFees: choice === 'with-fees' };
  },
  'pools.versioning.additive': (profile, choice) => {
    profile.reference = { ...(profile.reference ?? {}), poolsAdditiveFields: choice === 'additive-fields' };
  },
  'pools.ledger.paging': (profile, choice) => {
    profile.reference = { ...(profile.reference ?? {}), ledgerPaging: choice };
    const p = pools(profile);
    if (p)
      p.ledgerPaging =
        choice === 'after'
          ? { cursorParam: 'after', nextCursor: 'next', entries: 'entries' }
          : { cursorParam: 'cursor', nextCursor: 'nextCursor', entries: 'data' };
  },
  'pools.events.retry': (profile, choice) => {
    const p = pools(profile);
    if (p && choice === 'longer-fewer') p.webhookRetry = { attempts: LONGER_FEWER_RETRY.attempts, scheduleSeconds: [...LONGER_FEWER_RETRY.scheduleSeconds] };
  },
  'pools.events.signature': (profile, choice) => {
    // Another recipe is one the profile cannot declare (pools.webhookSignature names the Gate recipe only).
    const p = pools(profile);
    if (p && choice !== 'gate-recipe') delete p.webhookSignature;
  },
  'pools.controls.words': (profile, choice) => {
    const trigger = pools(profile)?.triggers?.poolState;
    if (trigger && choice === 'own-words') trigger.values = { ...(trigger.values ?? {}), state: OWN_STATE_VALUES };
  },
};
