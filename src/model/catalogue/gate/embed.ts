// Gate "Endpoints > Embed" with the embed rules of Authentication (publishable
// key only, exact origin, clientSecret binding, embed token lifetime).
import { defineArea } from '../define.js';

const area = defineArea({
  service: 'gate',
  section: 'Endpoints > Embed',
  entries: {
    'GATE-EMBED-BOOTSTRAP': { title: 'POST /embed/bootstrap with the publishable key from an allowed origin answers 2xx with an embed token (a JWT)', kind: 'status' },
    'GATE-EMBED-PK-ONLY': { title: 'The publishable key is the credential of /embed/bootstrap: a secret key there is refused', kind: 'auth', section: 'Authentication' },
    'GATE-EMBED-ORIGIN-EXACT': { title: 'The request origin must match an allowed domain exactly: another scheme, port, a longer host or no origin at all gives 403', kind: 'auth' },
    'GATE-EMBED-ORIGIN-NO-WILDCARD': { title: 'Wildcards are not supported: a subdomain of an allowed origin gives 403', kind: 'auth' },
    'GATE-EMBED-REFERER-MATCH': { title: 'Without Origin, a Referer whose origin matches an allowed domain is accepted', kind: 'auth' },
    'GATE-EMBED-CSP': { title: 'Embed responses carry a frame-ancestors content security policy naming the partner\'s allowed origins', kind: 'field' },
    'GATE-EMBED-CLIENT-SECRET-BINDS': { title: 'A bootstrap with a session\'s client_secret binds the embed token to that session', kind: 'auth', section: 'Authentication' },
    'GATE-EMBED-CLIENT-SECRET-FOREIGN-REFUSED': {
      title: "A bootstrap with another partner's session client_secret is refused without a token: 403 (Authentication rule 3) or 404 (Errors: cross-tenant is 404)",
      kind: 'auth',
      section: 'Authentication',
    },
    'GATE-EMBED-TOKEN-LIFETIME': { title: 'The embed token is a JWT with a default lifetime of 1 hour', kind: 'field', section: 'Authentication' },
    'GATE-EMBED-REFRESH-OPEN-ONLY': {
      title: 'POST /embed/refresh (X-Embed-Token) rotates the token (2xx, a new token) while the bound session is open, and refuses it (4xx, no token) after it is cancelled',
      kind: 'transition',
    },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'gate/embed': typeof area.entries;
  }
}
