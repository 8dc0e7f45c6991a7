// From the profile's pools section: a pool that answers quotes unavailable (pool_dry).
import { defineNeed } from '../define.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    poolsDryPool: string;
  }
}

export default defineNeed({
  name: 'poolsDryPool',
  description: 'a pool that answers quotes unavailable (pool_dry)',
  missing: (profile) => {
    const p = profile.pools;
    return p?.pools.dry ? null : 'pools.pools.dry is missing (a pool that answers quotes with available false, pool_dry)';
  },
  setup: (env) => {
    const p = env.profile.pools!;
    return p.pools.dry!;
  },
});
