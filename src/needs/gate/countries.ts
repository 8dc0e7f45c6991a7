// Capability data from the profile's gate.catalog: a supported country with its default currency, and an unsupported country.
import { defineNeed } from '../define.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateCountries: { supported: string; supportedCurrency: string; unsupported: string };
  }
}

export default defineNeed({
  name: 'gateCountries',
  description: 'a supported country with its default currency, and an unsupported country',
  missing: (profile) => {
    const c = profile.gate.catalog;
    return c.supportedCountry && c.unsupportedCountry && c.supportedCountryCurrency
      ? null
      : 'gate.catalog.supportedCountry, supportedCountryCurrency and unsupportedCountry are needed';
  },
  setup: (env) => {
    const c = env.profile.gate.catalog;
    return { supported: c.supportedCountry!, supportedCurrency: c.supportedCountryCurrency!, unsupported: c.unsupportedCountry! };
  },
});
