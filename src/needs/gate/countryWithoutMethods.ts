// Capability data from the profile's gate.catalog: a country whose default currency resolves no payment method.
import { defineNeed } from '../define.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateCountryWithoutMethods: string;
  }
}

export default defineNeed({
  name: 'gateCountryWithoutMethods',
  description: 'a country whose default currency resolves no payment method',
  missing: (profile) => {
    const c = profile.gate.catalog;
    return c.countryWithoutMethods ? null : 'gate.catalog.countryWithoutMethods is missing';
  },
  setup: (env) => {
    const c = env.profile.gate.catalog;
    return c.countryWithoutMethods!;
  },
});
