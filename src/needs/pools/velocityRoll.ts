// A velocity-capped pools partner whose rolling 24 h window rampart may move
// forward (velocityClock, and the sandbox trigger pools.triggers.velocityAdvance
// with {{seconds}}): only a day of real time could show the window roll
// otherwise. Held exclusively: the check spends its cap and ages its trades.
import type { PoolsPartner } from '../../profile/schema.js';
import { defineNeed, type PoolsActor, type TriggerResult } from '../define.js';
import { leasePools } from '../support/lease.js';
import { runTrigger } from '../support/triggers.js';

export interface VelocityRollActor extends PoolsActor {
  /** Age the partner's velocity window by `seconds`, as if the time had passed. */
  advance(seconds: number): Promise<TriggerResult>;
}

declare module '../../model/needs.js' {
  interface NeedRegistry {
    poolsVelocityRoll: VelocityRollActor;
  }
}

const rollable = (p: PoolsPartner) => p.state === 'funded' && !!p.velocityCap && p.velocityClock === true;

export default defineNeed({
  name: 'poolsVelocityRoll',
  exclusive: true,
  description: 'a velocity-capped pools partner whose rolling 24 h window a sandbox trigger moves forward ({{seconds}})',
  missing: (profile) => {
    if (!profile.pools?.triggers.velocityAdvance)
      return "pools.triggers.velocityAdvance is missing (a sandbox control moving the partner's rolling 24 h velocity window forward by {{seconds}}): the window cannot be seen to roll without waiting a day";
    return profile.pools.partners.some(rollable)
      ? null
      : 'no funded pools partner declares velocityCap with velocityClock: true (its window is the one rampart moves)';
  },
  setup: async (env) => {
    const actor = await leasePools(env, 'velocity-capped with a movable window (velocityClock)', rollable, { exclusive: true });
    const tpl = env.profile.pools!.triggers.velocityAdvance!;
    return {
      ...actor,
      advance: (seconds: number) =>
        runTrigger(env, 'pools', 'velocityAdvance', tpl, actor, { seconds: String(Math.round(seconds)), partner: actor.partner.name }),
    };
  },
});
