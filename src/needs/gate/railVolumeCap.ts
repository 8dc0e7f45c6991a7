// A rail-entitled Gate partner whose per-user cumulative rail volume cap the
// profile declares (railVolumeCap): the spec says the cap exists but not its
// value, so only a declared cap lets a check push a user past it.
import { defineNeed, type GateActor } from '../define.js';
import { leaseGate } from '../support/lease.js';

export interface RailVolumeCapActor extends GateActor {
  /** The cap, a decimal string in the currency of the sessions rampart creates. */
  cap: string;
}

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateRailVolumeCap: RailVolumeCapActor;
  }
}

const capped = (p: { rails?: boolean; railVolumeCap?: string }) => p.rails === true && !!p.railVolumeCap;

export default defineNeed({
  name: 'gateRailVolumeCap',
  description: 'a rail-entitled Gate partner with a declared per-user cumulative rail volume cap',
  missing: (profile) =>
    profile.gate.partners.some(capped)
      ? null
      : 'no gate partner has rails: true and railVolumeCap (the per-user cumulative rail volume cap the target applies to it; its value is not shown in the spec)',
  setup: async (env) => {
    const a = await leaseGate(env, 'rail volume-capped', capped);
    return { ...a, cap: a.partner.railVolumeCap! };
  },
});
