// Profile variants the doctor compares: the profile without one element (what
// a broken element takes away) or with a missing one declared (what it would
// unlock). Pure functions of a parsed profile; nothing is written anywhere.
import type { GatePartner, PoolsPartner, Profile, RequestTemplate } from '../profile/schema.js';

type Edit = (p: Profile) => Profile;

/** A stand-in template: the needs only ask whether a trigger is declared. */
const DECLARED: RequestTemplate = { method: 'POST', path: '/declared', auth: 'secret' };

export function withoutGateTrigger(name: string): Edit {
  return (p) => ({ ...p, gate: { ...p.gate, triggers: { ...p.gate.triggers, [name]: undefined } } });
}

export function withGateTrigger(name: string): Edit {
  return (p) => ({ ...p, gate: { ...p.gate, triggers: { ...p.gate.triggers, [name]: DECLARED } } });
}

export function withoutPoolsTrigger(name: string): Edit {
  return (p) => (p.pools ? { ...p, pools: { ...p.pools, triggers: { ...p.pools.triggers, [name]: undefined } } } : p);
}

export function withPoolsTrigger(name: string): Edit {
  return (p) => (p.pools ? { ...p, pools: { ...p.pools, triggers: { ...p.pools.triggers, [name]: DECLARED } } } : p);
}

/** The profile with one Gate partner changed (or removed, when `change` returns undefined). */
export function editGatePartner(name: string, change: (g: GatePartner) => GatePartner | undefined): Edit {
  return (p) => ({
    ...p,
    gate: { ...p.gate, partners: p.gate.partners.flatMap((g) => (g.name === name ? [change(g)].filter((x): x is GatePartner => !!x) : [g])) },
  });
}

export function editPoolsPartner(name: string, change: (g: PoolsPartner) => PoolsPartner | undefined): Edit {
  return (p) =>
    p.pools
      ? { ...p, pools: { ...p.pools, partners: p.pools.partners.flatMap((g) => (g.name === name ? [change(g)].filter((x): x is PoolsPartner => !!x) : [g])) } }
      : p;
}

export function withoutGateField<K extends keyof GatePartner>(name: string, field: K): Edit {
  return editGatePartner(name, (g) => ({ ...g, [field]: undefined }));
}

export function withoutBaseUrl(service: 'gate' | 'pools', which: 'sandbox' | 'production'): Edit {
  return (p) => {
    if (which === 'sandbox') return service === 'gate' ? { ...p, gate: { ...p.gate, partners: [] } } : { ...p, pools: undefined };
    if (service === 'gate') return { ...p, gate: { ...p.gate, baseUrls: { ...p.gate.baseUrls, production: undefined } } };
    return p.pools ? { ...p, pools: { ...p.pools, baseUrls: { ...p.pools.baseUrls, production: undefined } } } : p;
  };
}

export function withBaseUrl(service: 'gate' | 'pools'): Edit {
  return (p) => {
    if (service === 'gate') return { ...p, gate: { ...p.gate, baseUrls: { ...p.gate.baseUrls, production: 'http://declared.invalid/v1' } } };
    return p.pools ? { ...p, pools: { ...p.pools, baseUrls: { ...p.pools.baseUrls, production: 'http://declared.invalid/v1' } } } : p;
  };
}

/** Every edit applied in turn. */
export function applyAll(p: Profile, edits: readonly (Edit | undefined)[]): Profile {
  return edits.reduce<Profile>((acc, e) => (e ? e(acc) : acc), p);
}
