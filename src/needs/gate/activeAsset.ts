// Capability data from the profile's gate.catalog: an active asset offered on_ramp in the supported country.
import { defineNeed } from '../define.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateActiveAsset: string;
  }
}

export default defineNeed({
  name: 'gateActiveAsset',
  description: 'an active asset offered on_ramp in the supported country',
  missing: (profile) => {
    const c = profile.gate.catalog;
    return c.activeAsset ? null : 'gate.catalog.activeAsset is missing';
  },
  setup: (env) => {
    const c = env.profile.gate.catalog;
    return c.activeAsset!;
  },
});
