// Capability data from the profile's gate.catalog: a supported and an unsupported currency.
import { defineNeed } from '../define.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateCurrencies: { supported: string; unsupported: string };
  }
}

export default defineNeed({
  name: 'gateCurrencies',
  description: 'a supported and an unsupported currency',
  missing: (profile) => {
    const c = profile.gate.catalog;
    return c.supportedCurrency && c.unsupportedCurrency ? null : 'gate.catalog.supportedCurrency and unsupportedCurrency are needed';
  },
  setup: (env) => {
    const c = env.profile.gate.catalog;
    return { supported: c.supportedCurrency!, unsupported: c.unsupportedCurrency! };
  },
});
