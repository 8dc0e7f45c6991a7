// Choosing the caller's IP country: the spec resolves the region from the edge
// header cf-ipcountry without country_code. A target behind an edge that sets
// that header itself (Cloudflare does) ignores the one rampart sends, so the
// ip-geo rules cannot be reached from outside: the profile says so with
// gate.edge.overwritesCountryHeader.
import { defineNeed } from '../define.js';

/** Headers that put the caller in `country` (none: no edge country at all). */
export type EdgeCountry = (country?: string) => Record<string, string>;

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateEdgeCountry: EdgeCountry;
  }
}

export const EDGE_COUNTRY_HEADER = 'cf-ipcountry';

export default defineNeed({
  name: 'gateEdgeCountry',
  description: 'rampart can set or omit the edge country header cf-ipcountry',
  missing: (profile) =>
    profile.gate.edge.overwritesCountryHeader
      ? "gate.edge.overwritesCountryHeader is true: the edge in front of the target sets cf-ipcountry from the caller's IP, so rampart can neither choose nor omit the IP country"
      : null,
  setup: (): EdgeCountry => (country) => {
    const headers: Record<string, string> = {};
    if (country !== undefined) headers[EDGE_COUNTRY_HEADER] = country;
    return headers;
  },
});
