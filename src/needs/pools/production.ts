// A client on the pools production base URL, with no credential of its own (checks choose the key).
import type { ApiClient } from '../../client/types.js';
import { defineNeed } from '../define.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    poolsProduction: ApiClient;
  }
}

export default defineNeed({
  name: 'poolsProduction',
  description: 'the Pools production base URL (a test key presented there must be refused)',
  missing: (profile) => (profile.pools?.baseUrls.production ? null : 'the profile has no pools.baseUrls.production'),
  setup: (env) => env.client('pools', env.profile.pools!.baseUrls.production!, 'production'),
});
