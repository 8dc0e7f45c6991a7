// Gate "Endpoints > Embed" with the embed rules of Authentication (publishable
// key only, exact origin, clientSecret binding, embed token lifetime).
import type { Requirement } from '../types.js';

const e = (id: string, section: string, title: string, kind: Requirement['kind'], roles: Requirement['roles'] = ['gate.publishableKey']): Requirement => ({
  id,
  service: 'gate',
  section,
  title,
  kind,
  roles,
  suite: 'conformance',
});

const EP = 'Endpoints > Embed';
const AUTH = 'Authentication';

export const requirements: Requirement[] = [
  e('GATE-EMBED-BOOTSTRAP', EP, 'POST /embed/bootstrap with the publishable key from an allowed origin answers 2xx with an embed token (a JWT)', 'status'),
  e('GATE-EMBED-PK-ONLY', AUTH, 'The publishable key is the credential of /embed/bootstrap: a secret key there is refused', 'auth', ['gate.publishableKey']),
  e('GATE-EMBED-ORIGIN-EXACT', EP, 'The request origin must match an allowed domain exactly: another scheme, port, a longer host or no origin at all gives 403', 'auth'),
  e('GATE-EMBED-ORIGIN-NO-WILDCARD', EP, 'Wildcards are not supported: a subdomain of an allowed origin gives 403', 'auth'),
  e('GATE-EMBED-REFERER-MATCH', EP, 'Without Origin, a Referer whose origin matches an allowed domain is accepted', 'auth'),
  e('GATE-EMBED-CSP', EP, "Embed responses carry a frame-ancestors content security policy naming the partner's allowed origins", 'field'),
  e('GATE-EMBED-CLIENT-SECRET-BINDS', AUTH, "A bootstrap with a session's client_secret binds the embed token to that session", 'auth'),
  e('GATE-EMBED-CLIENT-SECRET-FOREIGN-403', AUTH, "A bootstrap with another partner's session client_secret gives 403", 'auth', ['gate.publishableKey', 'gate.secondPartner']),
  e('GATE-EMBED-TOKEN-LIFETIME', AUTH, 'The embed token is a JWT with a default lifetime of 1 hour', 'field'),
  e('GATE-EMBED-REFRESH-OPEN-ONLY', EP, 'POST /embed/refresh (X-Embed-Token) rotates the token while the bound session is open, and not after it is cancelled', 'transition'),
];
