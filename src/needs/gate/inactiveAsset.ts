// Capability data from the profile's gate.catalog: an asset that exists but is inactive.
import { defineNeed } from '../define.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateInactiveAsset: string;
  }
}

export default defineNeed({
  name: 'gateInactiveAsset',
  description: 'an asset that exists but is inactive',
  missing: (profile) => {
    const c = profile.gate.catalog;
    return c.inactiveAsset ? null : 'gate.catalog.inactiveAsset is missing';
  },
  setup: (env) => {
    const c = env.profile.gate.catalog;
    return c.inactiveAsset!;
  },
});
