// From the profile's pools section: an amount above a funded partner’s balance (402).
import { defineNeed } from '../define.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    poolsOversized: string;
  }
}

export default defineNeed({
  name: 'poolsOversized',
  description: 'an amount above a funded partner’s balance (402)',
  missing: (profile) => {
    const p = profile.pools;
    return p?.oversizedAmount ? null : 'pools.oversizedAmount is missing (an amount above every funded partner balance)';
  },
  setup: (env) => {
    const p = env.profile.pools!;
    return p.oversizedAmount!;
  },
});
