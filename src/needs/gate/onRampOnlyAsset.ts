// Capability data from the profile's gate.catalog: an asset offered on_ramp but not off_ramp.
import { defineNeed } from '../define.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateOnRampOnlyAsset: string;
  }
}

export default defineNeed({
  name: 'gateOnRampOnlyAsset',
  description: 'an asset offered on_ramp but not off_ramp',
  missing: (profile) => {
    const c = profile.gate.catalog;
    return c.onRampOnlyAsset ? null : 'gate.catalog.onRampOnlyAsset is missing';
  },
  setup: (env) => {
    const c = env.profile.gate.catalog;
    return c.onRampOnlyAsset!;
  },
});
