// Authentication: the credential rules live in world.ts (authSecret /
// authPublishable), tenancy in each area's lookups; this area owns their
// seeded faults. Its only routes are fault stand-ins: registered first, they
// shadow the real route while their fault is on (a tenancy leak in a list, a read
// or a write that the owning area need not know about).
import type { FaultDef } from '../kit/faults.js';
import { HttpError, Router, type Handler, type Reply, type Req } from '../kit/http.js';
import { area as branding } from './branding.js';
import { area as capabilities } from './capabilities.js';
import { area as customers } from './customers.js';
import { area as dashboard } from './dashboard.js';
import { area as rails } from './rails.js';
import { area as sessions } from './sessions.js';
import { area as quotesTransactions, quotes, quoteView } from './quotesTransactions.js';
import { area as webhookOperations, listDeliveries } from './webhookOperations.js';
import { bearerToken, type GateArea, type GateWorld } from './world.js';

/** The secret-key route groups the Authentication table lists, by path prefix (the areas that own them). */
const SK_GROUPS: Record<string, { prefix: RegExp; areas: GateArea[] }> = {
  sessions: { prefix: /^\/gate_sessions(\/|$)/, areas: [sessions] },
  capabilities: { prefix: /^\/capabilities\//, areas: [capabilities] },
  quotes: { prefix: /^\/quotes(\/|$)/, areas: [quotesTransactions] },
  rails: { prefix: /^\/rails\//, areas: [rails] },
  transactions: { prefix: /^\/transactions(\/|$)/, areas: [quotesTransactions] },
  customers: { prefix: /^\/customers(\/|$)/, areas: [customers] },
  branding: { prefix: /^\/branding$/, areas: [branding] },
  webhooks: { prefix: /^\/webhooks\//, areas: [webhookOperations] },
  dashboard: { prefix: /^\/dashboard\//, areas: [dashboard] },
};

/** Per group: a request without a key is refused 403 instead of 401; a publishable key is taken for its partner's secret key. */
const GROUP_FAULTS: FaultDef[] = Object.keys(SK_GROUPS).flatMap((g) => [
  {
    name: `auth-missing-key-403-${g}`,
    service: 'gate' as const,
    requirements: ['GATE-AUTH-MISSING-401'],
    description: `The ${g} routes answer a request without credentials with 403 instead of 401.`,
    suite: 'conformance' as const,
  },
  {
    name: `auth-publishable-key-accepted-${g}`,
    service: 'gate' as const,
    requirements: ['GATE-AUTH-PK-SECRET-ROUTE'],
    description: `The ${g} routes accept a publishable key as its partner's secret key.`,
    suite: 'conformance' as const,
  },
]);

/** Stand-ins for every route of a group whose fault is on, delegating to the owning area's handlers otherwise. */
function groupStandIns(router: Router, world: GateWorld): void {
  for (const [g, { prefix, areas }] of Object.entries(SK_GROUPS)) {
    const noKey = world.faults.has(`auth-missing-key-403-${g}`);
    const pk = world.faults.has(`auth-publishable-key-accepted-${g}`);
    if (!noKey && !pk) continue;
    const real = new Router();
    for (const a of new Set(areas)) a.register(real, world);
    for (const r of real.list().filter((x) => prefix.test(x.pattern))) {
      const handler = real.match(r.method, r.pattern.replace(/:[^/]+/g, 'x')).handler!;
      router.on(r.method, r.pattern, (req) => {
        const token = bearerToken(req);
        if (noKey && !token) throw new HttpError(403, 'Not allowed.', 'forbidden');
        const owner = pk && token ? world.profile.gate.partners.find((p) => p.publishableKey === token) : undefined;
        return handler(owner ? { ...req, headers: { ...req.headers, authorization: `Bearer ${owner.secretKey}` } } : req);
      });
    }
  }
}

/** The deliveries list of every partner of the caller's mode, newest first: the list leaks other tenants. */
function everyonesDeliveries(world: GateWorld, req: Req) {
  const caller = world.authSecret(req);
  const url = '/v1/webhooks/deliveries';
  const own = listDeliveries(world, caller, req, url) as { data: { created_at: string | null }[]; has_more: boolean };
  const others = world.profile.gate.partners
    .filter((p) => p.name !== caller.partner.name)
    .flatMap((p) => (listDeliveries(world, { partner: p, mode: caller.mode }, req, url) as typeof own).data);
  const data = [...own.data, ...others].sort((a, b) => String(b.created_at).localeCompare(String(a.created_at))).slice(0, Math.max(own.data.length, 50));
  return { status: 200, body: { ...own, data } };
}

/**
 * The customers area's own write handler, run as the customer's owner when the caller's own answer is 404:
 * another partner's customer is written as if it were the caller's.
 */
function writeAsOwner(world: GateWorld, handler: Handler): Handler {
  const notFound = (e: unknown) => e instanceof HttpError && e.status === 404;
  return async (req: Req): Promise<Reply> => {
    const caller = world.authSecret(req);
    try {
      return await handler(req);
    } catch (e) {
      if (!notFound(e) || caller.mode !== 'test') throw e;
      for (const p of world.profile.gate.partners.filter((x) => x.name !== caller.partner.name)) {
        try {
          return await handler({ ...req, headers: { ...req.headers, authorization: `Bearer ${p.secretKey}` } });
        } catch (other) {
          if (!notFound(other)) throw other;
        }
      }
      throw e;
    }
  };
}

/** The partner an embed token (a JWT) names in its pid claim, read without checking its signature. */
function embedTokenPartner(world: GateWorld, req: Req) {
  const m = /^Bearer\s+([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]*)\s*$/i.exec(String(req.headers.authorization ?? ''));
  if (!m) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(m[2]!, 'base64url').toString('utf8')) as { pid?: unknown };
    return world.profile.gate.partners.find((p) => p.name === claims.pid);
  } catch {
    return undefined;
  }
}

export const area: GateArea = {
  name: 'auth',
  faults: [
    {
      name: 'auth-revoked-key-accepted',
      service: 'gate',
      requirements: ['GATE-AUTH-REVOKED-403'],
      description: 'A revoked key (secret or publishable) is accepted.',
      suite: 'conformance',
    },
    {
      name: 'auth-mode-mismatch-accepted',
      service: 'gate',
      requirements: ['GATE-AUTH-MODE-MISMATCH-403'],
      description: 'A live key works on the sandbox base and a test key on production.',
      suite: 'conformance',
    },
    {
      name: 'auth-publishable-key-on-secret-route',
      service: 'gate',
      requirements: ['GATE-AUTH-PK-SECRET-ROUTE'],
      description: 'A publishable key is accepted on secret-key routes.',
      suite: 'conformance',
    },
    {
      name: 'auth-missing-credential-403',
      service: 'gate',
      requirements: ['GATE-AUTH-MISSING-401'],
      description: 'A request without credentials gives 403 instead of 401.',
      suite: 'conformance',
    },
    {
      name: 'auth-malformed-key-403',
      service: 'gate',
      requirements: ['GATE-AUTH-MALFORMED-401'],
      description: 'A malformed or unknown key gives 403 instead of 401.',
      suite: 'conformance',
    },
    {
      name: 'err-cross-tenant-403',
      service: 'gate',
      requirements: ['GATE-ERR-CROSS-TENANT-404'],
      description: "Another partner's session gives 403 instead of 404.",
      suite: 'conformance',
    },
    {
      name: 'auth-foreign-quote-readable',
      service: 'gate',
      requirements: ['GATE-AUTH-CROSS-TENANT-QUOTE'],
      description: "GET /quotes/{id} answers another partner's signed quote instead of 404.",
      suite: 'conformance',
    },
    {
      name: 'auth-foreign-customer-writable',
      service: 'gate',
      requirements: ['GATE-AUTH-CROSS-TENANT-CUSTOMER-WRITE'],
      description: "PATCH and DELETE /customers/{id} of another partner's customer are applied (as its owner) instead of 404.",
      suite: 'conformance',
    },
    {
      name: 'sess-mode-leak',
      service: 'gate',
      requirements: ['GATE-TENANT-LIVE-ISOLATION'],
      description: "GET /gate_sessions/{id} with a partner's live key reads the same partner's test session (the environment is not part of the scope).",
      suite: 'conformance',
    },
    {
      name: 'auth-embed-token-accepted',
      service: 'gate',
      requirements: ['GATE-EMBED-TOKEN-NOT-SERVER-CREDENTIAL'],
      description: 'GET /gate_sessions accepts an embed token as the bearer credential (as the partner it names).',
      suite: 'conformance',
    },
    {
      name: 'auth-deliveries-foreign-listed',
      service: 'gate',
      requirements: ['GATE-AUTH-CROSS-TENANT-DELIVERY'],
      description: "GET /webhooks/deliveries lists the deliveries of every partner of the environment, not only the caller's.",
      suite: 'conformance',
    },
    ...GROUP_FAULTS,
  ],
  register(router, world) {
    groupStandIns(router, world);
    // Credential checks run inside each route through world.authSecret / authPublishable.
    // The sessions area's own handlers on a private router (same world), for the stand-ins below.
    const real = new Router();
    if (world.faults.has('auth-embed-token-accepted') || world.faults.has('sess-mode-leak')) sessions.register(real, world);
    if (world.faults.has('sess-mode-leak')) {
      // The partner's session of the other environment is read too: the environment is not part of the scope.
      const read = real.match('GET', '/gate_sessions/x').handler!;
      router.on('GET', '/gate_sessions/:id', (req) => {
        const caller = world.authSecret(req);
        const s = world.sessions.get(req.params.id!);
        if (s && s.partner === caller.partner.name && s.mode !== caller.mode) return { status: 200, body: world.sessionView(s) };
        return read(req);
      });
    }
    if (world.faults.has('auth-embed-token-accepted')) {
      // The session list run as the partner an embed token names: the token passes for a server credential.
      const list = real.match('GET', '/gate_sessions').handler!;
      router.on('GET', '/gate_sessions', (req) => {
        const p = embedTokenPartner(world, req);
        return list(p ? { ...req, headers: { ...req.headers, authorization: `Bearer ${p.secretKey}` } } : req);
      });
    }
    if (world.faults.has('auth-foreign-quote-readable')) {
      router.on('GET', '/quotes/:id', (req) => {
        const caller = world.authSecret(req, { rail: true });
        const q = quotes(world).get(req.params.id!);
        if (!q || !q.scope.endsWith(`\u0000${caller.mode}`)) throw new HttpError(404, `No such quote: ${req.params.id}`, 'resource_missing');
        return { status: 200, body: quoteView(world, q) };
      });
    }
    if (world.faults.has('auth-deliveries-foreign-listed')) router.on('GET', '/webhooks/deliveries', (req) => everyonesDeliveries(world, req));
    if (world.faults.has('auth-foreign-customer-writable')) {
      // The real handlers on a private router (same world, same customer store), wrapped.
      const real = new Router();
      customers.register(real, world);
      for (const method of ['PATCH', 'DELETE']) {
        const handler = real.match(method, '/customers/x').handler!;
        router.on(method, '/customers/:id', writeAsOwner(world, handler));
      }
    }
  },
};
