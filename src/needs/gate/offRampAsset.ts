// Capability data from the profile's gate.catalog: an active asset offered off_ramp.
import { defineNeed } from '../define.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateOffRampAsset: string;
  }
}

export default defineNeed({
  name: 'gateOffRampAsset',
  description: 'an active asset offered off_ramp',
  missing: (profile) => (profile.gate.catalog.offRampAsset ? null : 'gate.catalog.offRampAsset is missing (an active asset offered off_ramp)'),
  setup: (env) => env.profile.gate.catalog.offRampAsset!,
});
