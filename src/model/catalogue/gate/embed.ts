// Gate "Endpoints > Embed" with the embed rules of Authentication (publishable
// key only, exact origin, clientSecret binding, embed token lifetime).
import { defineArea } from '../define.js';

const area = defineArea({
  service: 'gate',
  section: 'Endpoints > Embed',
  entries: {
    'GATE-EMBED-NO-KEY-401': {
      title: 'POST /embed/bootstrap without a key (from an allowed origin) gives 401 unauthorized',
      kind: 'auth',
      anchor: ['Missing or malformed credentials give 401.', '| POST | /embed/bootstrap | PK | Body: `clientSecret` (string, optional).'],
    },
    'GATE-EMBED-BOOTSTRAP': {
      title: 'POST /embed/bootstrap with the publishable key from an allowed origin answers 2xx with an embed token (a JWT)',
      kind: 'status',
      anchor: ['| POST | /embed/bootstrap | PK | Body: `clientSecret` (string, optional).', 'Response: embed token and session context.'],
    },
    'GATE-EMBED-PK-ONLY': {
      title: 'The publishable key is the credential of /embed/bootstrap: a secret key there is refused',
      kind: 'auth',
      section: 'Authentication',
      anchor: 'A secret key presented on a publishable-key route is an integration error.',
    },
    'GATE-EMBED-ORIGIN-EXACT': {
      title: 'The request origin must match an allowed domain exactly: another scheme, port, a longer host or no origin at all gives 403',
      kind: 'auth',
      anchor: [
        'The request origin or referer must match an allowed domain of the partner exactly',
        "an origin not in the partner's allowed domains",
        'origin not allowed',
      ],
    },
    'GATE-EMBED-ORIGIN-NO-WILDCARD': {
      title: 'Wildcards are not supported: a subdomain of an allowed origin gives 403',
      kind: 'auth',
      anchor: 'wildcards are not supported',
    },
    'GATE-EMBED-REFERER-MATCH': {
      title: 'Without Origin, a Referer whose origin matches an allowed domain is accepted',
      kind: 'auth',
      anchor: 'The request origin or referer must match',
    },
    'GATE-EMBED-CSP': {
      title: "Embed responses carry a frame-ancestors content security policy naming the partner's allowed origins",
      kind: 'field',
      anchor: 'Responses carry a per-partner frame-ancestors content security policy.',
    },
    'GATE-EMBED-CLIENT-SECRET-BINDS': {
      title: "A bootstrap with a session's client_secret binds the embed token to that session",
      kind: 'auth',
      section: 'Authentication',
      anchor: [
        '| client_secret | prefix `gsec_` | browser, one session | binds a bootstrap call to one session |',
        'bootstraps an embedded widget in which the user cannot change the locked terms',
      ],
    },
    'GATE-EMBED-CLIENT-SECRET-FOREIGN-REFUSED': {
      title:
        "A bootstrap with another partner's session client_secret is refused without a token: 403 (Authentication rule 3) or 404 (Errors: cross-tenant is 404)",
      kind: 'auth',
      section: 'Authentication',
      anchor: [
        "A revoked key, an origin not in the partner's allowed domains, or a session of another partner gives 403.",
        '| 403 | forbidden | revoked key, origin not allowed',
      ],
    },
    'GATE-EMBED-TOKEN-LIFETIME': {
      title: 'The embed token is a JWT with a default lifetime of 1 hour',
      kind: 'field',
      section: 'Authentication',
      anchor: ['| Embed token | JWT in header `X-Embed-Token`, default lifetime 1 hour |', 'Embed token default lifetime 1 hour.'],
    },
    'GATE-EMBED-REFRESH-OPEN-ONLY': {
      title:
        'POST /embed/refresh (X-Embed-Token) rotates the token (2xx, a new token) while the bound session is open, and refuses it (4xx, no token) after it is cancelled',
      kind: 'transition',
      anchor: [
        '| POST | /embed/refresh | embed token | Rotates the embed token while the bound session is open.',
        'renewable via refresh while the session is open',
      ],
    },
    'GATE-EMBED-CONTEXT': {
      title:
        "A bootstrap bound by clientSecret answers the session context: the session id, its amount and currency, mode, the owning partner id (the session's partner_id), return URL, flow and target token/network as the session holds them, and the embed token's expiry",
      kind: 'field',
      section: 'Resources and their fields > Other resources',
      anchor: [
        'The response carries an embed token, its expiry, partner id, mode, session id, amount/currency, optional target token/network, return URL and flow.',
        'Response: embed token and session context.',
        'stamps partner and session context on later calls',
      ],
    },
    'GATE-EMBED-TOKEN-NOT-SERVER-CREDENTIAL': {
      title: 'An embed token is not a server credential: presented as the bearer on a secret-key route it is refused (401 or 403)',
      kind: 'auth',
      section: 'Authentication',
      anchor: 'not a server credential',
    },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'gate/embed': typeof area.entries;
  }
}
