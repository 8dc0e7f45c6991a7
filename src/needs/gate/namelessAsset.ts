// Capability data from the profile's gate.catalog: an active asset the target holds no display name for.
import { defineNeed } from '../define.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateNamelessAsset: string;
  }
}

export default defineNeed({
  name: 'gateNamelessAsset',
  description: 'an active asset without a display name (its name falls back to its symbol)',
  missing: (profile) =>
    profile.gate.catalog.namelessAsset ? null : 'gate.catalog.namelessAsset is missing (an active asset the target holds no display name for)',
  setup: (env) => env.profile.gate.catalog.namelessAsset!,
});
