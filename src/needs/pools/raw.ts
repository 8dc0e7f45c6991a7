// A client on the pools sandbox base URL with no credential of its own: checks send
// deliberately missing, malformed, revoked or foreign credentials with it.
import type { ApiClient } from '../../client/types.js';
import { defineNeed } from '../define.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    poolsRaw: ApiClient;
  }
}

export default defineNeed({
  name: 'poolsRaw',
  description: 'a client on the Pools sandbox base URL without a credential',
  missing: (profile) => (profile.pools ? null : 'the profile has no pools section'),
  setup: (env) => env.client('pools', env.profile.pools!.baseUrls.sandbox, 'raw'),
});
