// Gate "Endpoints > Embed": bootstrap with the publishable key from an exactly
// matching origin (or referer), the frame-ancestors policy, clientSecret
// binding, the embed token's lifetime, and refresh while the session is open.
// Response fields and success statuses are not shown: any 2xx, and the token is
// found as the JWT in the body.
import type { Exchange } from '../../src/client/types.js';
import { check, defineSuite, type CheckTools, type RequirementId } from '../../src/runner/check.js';
import { CLOCK_BOUNDS, GATE_LIMITS } from '../../src/model/limits.js';
import { expectOnTargetClock, spanOf, type TimeRule } from '../../support/targetTime.js';
import { expect2xx } from '../../support/expect.js';
import { expectGateError } from '../../support/gate/errors.js';
import { expectObjectDiscriminator } from '../../support/gate/objects.js';
import { bootstrap, createSession, expectTermsEchoed, findJwt, sessionBody, sessionPath, stringsIn } from '../../support/gate/sessions.js';
import { decEq } from '../../support/pools/pools.js';
import type { GateActor } from '../../src/needs/define.js';
import type { GateSession } from '../../src/model/schemas/gate/sessions.js';
import { sharedAssets } from '../../support/gate/capabilities.js';

const HOUR_S = GATE_LIMITS.embedTokenLifetimeMs / 1000;
/** Clock and rounding slack on the 1 h token lifetime, in seconds. */
const LIFETIME_SLACK_S = 60;
/** The token's lifetime without iat: exp against the target's clock while the bootstrap was answered. */
const TOKEN_LIFETIME_RULE: TimeRule = { requirement: 'GATE-EMBED-TOKEN-LIFETIME', bound: CLOCK_BOUNDS.embedTokenLifetime };
/** A checksummed EVM address (EIP-55's own example), for a wallet on an EVM network. */
const EVM_WALLET = '0x52908400098527886E0F7030069857D2E4169EE7';

/** Every string and number inside a JSON value (the bootstrap's field names are not shown). */
function leavesOf(v: unknown, out: (string | number)[] = []): (string | number)[] {
  if (typeof v === 'string' || typeof v === 'number') out.push(v);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) leavesOf(x, out);
  return out;
}

/**
 * Terms a target itself offers for a session's token constraint: an active
 * on_ramp asset of GET /capabilities/assets with its first network (and a
 * wallet when that network is EVM-style). None when the list offers none.
 */
async function tokenTerms(t: CheckTools, actor: GateActor): Promise<Record<string, string>> {
  const ex = await sharedAssets(t, actor);
  const assets = (ex.status >= 200 && ex.status < 300 ? (ex.json?.data ?? []) : []) as {
    symbol?: unknown;
    active?: unknown;
    side?: unknown;
    networks?: { chain?: unknown; contract_address?: unknown }[];
  }[];
  const a = assets.find((x) => x?.active === true && x.side === 'on_ramp' && typeof x.symbol === 'string' && typeof x.networks?.[0]?.chain === 'string');
  if (!a) return {};
  const net = a.networks![0]!;
  const evm = typeof net.contract_address === 'string' && net.contract_address.startsWith('0x');
  return { target_token: a.symbol as string, target_network: net.chain as string, ...(evm ? { wallet_address: EVM_WALLET } : {}) };
}

/**
 * The bootstrap's session context carries what the spec lists, whatever the field names: the session id, its
 * amount and currency, mode, the owning partner id, return URL, flow and target token/network as the session
 * holds them, and the token's expiry (as a time near the JWT's exp, or its lifetime).
 */
function expectContext(t: CheckTools, ex: Exchange, session: GateSession, claims: Record<string, unknown>, requirement: RequirementId): void {
  const leaves = leavesOf(ex.json);
  const has = (what: string, want: string, same: (x: string | number) => boolean) =>
    t.expect.that(leaves.some(same), `the session context carries the ${what} (${want})`, { requirement, exchange: ex });
  const str = (v: string) => (x: string | number) => x === v;
  has('session id', session.id, str(session.id));
  has('amount', session.amount, (x) =>
    typeof x === 'string' && /^\d+(\.\d+)?$/.test(x) ? decEq(x, session.amount) : typeof x === 'number' && String(x) !== '' && decEq(String(x), session.amount),
  );
  has('currency', session.currency, (x) => typeof x === 'string' && x.toUpperCase() === session.currency.toUpperCase());
  has('mode', session.mode, str(session.mode));
  has("owning partner's id", session.partner_id, str(session.partner_id));
  has('return URL', session.return_url, str(session.return_url));
  for (const k of ['flow', 'target_token', 'target_network'] as const) {
    const v = session[k];
    if (typeof v === 'string') has(k.replace('_', ' '), v, str(v));
  }
  const exp = Number(claims.exp);
  const iat = Number.isFinite(Number(claims.iat)) ? Number(claims.iat) : exp - HOUR_S;
  const near = (s: number) => Math.abs(s - exp) <= LIFETIME_SLACK_S;
  has('token expiry', String(exp), (x) =>
    typeof x === 'string'
      ? !/^\d+$/.test(x) && Number.isFinite(Date.parse(x)) && near(Date.parse(x) / 1000)
      : near(x) || near(x / 1000) || Math.abs(x - (exp - iat)) <= LIFETIME_SLACK_S,
  );
}

function expectCsp(t: CheckTools, ex: Exchange, origins: readonly string[], requirement: RequirementId): void {
  const csp = ex.headers['content-security-policy'] ?? '';
  const fa = /frame-ancestors\s+([^;]*)/i.exec(csp)?.[1]?.trim().split(/\s+/) ?? [];
  t.expect.that(fa.length > 0, 'the response carries a frame-ancestors content security policy', {
    requirement,
    actual: csp || '(no Content-Security-Policy)',
    exchange: ex,
  });
  for (const o of origins) {
    t.expect.that(fa.includes(o), `frame-ancestors names the allowed origin ${o}`, { requirement, actual: fa.join(' '), exchange: ex });
  }
  t.expect.that(!fa.includes('*'), "frame-ancestors is the partner's origins, not a wildcard", { requirement, actual: fa.join(' '), exchange: ex });
}

function expectToken(t: CheckTools, ex: Exchange, requirement: RequirementId) {
  const jwt = findJwt(ex.json);
  t.expect.that(jwt, 'the response carries an embed token (a JWT)', { requirement, exchange: ex });
  return jwt;
}

/** Origins that differ from `origin` in one way each: none may pass an exact match. */
function near(origin: string): { what: string; origin: string; requirement: RequirementId }[] {
  const u = new URL(origin);
  const port = u.port ? `:${u.port}` : '';
  const otherPort = u.port ? String(Number(u.port) + 1) : u.protocol === 'https:' ? '8443' : '8080';
  return [
    { what: 'a subdomain', origin: `${u.protocol}//rampart.${u.hostname}${port}`, requirement: 'GATE-EMBED-ORIGIN-NO-WILDCARD' },
    { what: 'another scheme', origin: `${u.protocol === 'https:' ? 'http:' : 'https:'}//${u.hostname}${port}`, requirement: 'GATE-EMBED-ORIGIN-EXACT' },
    { what: 'another port', origin: `${u.protocol}//${u.hostname}:${otherPort}`, requirement: 'GATE-EMBED-ORIGIN-EXACT' },
    { what: 'a longer host', origin: `${u.protocol}//${u.hostname}.rampart.test${port}`, requirement: 'GATE-EMBED-ORIGIN-EXACT' },
    // With a port, a longer host no longer starts with the allowed origin: a prefix match is caught only by text after the port.
    ...(u.port
      ? [{ what: 'the allowed origin with text after its port', origin: `${origin}.rampart.test`, requirement: 'GATE-EMBED-ORIGIN-EXACT' as const }]
      : []),
  ];
}

export default defineSuite({
  service: 'gate',
  section: 'Endpoints > Embed',
  checks: [
    check({
      name: 'bootstrap from an allowed origin answers a 1-hour embed token with a frame-ancestors policy naming the allowed origins; the token is no server credential',
      requirements: ['GATE-EMBED-BOOTSTRAP', 'GATE-EMBED-CSP', 'GATE-EMBED-TOKEN-LIFETIME', 'GATE-EMBED-TOKEN-NOT-SERVER-CREDENTIAL'],
      needs: ['gateEmbed'],
      async run({ gateEmbed: actor }, t: CheckTools) {
        const ex = expect2xx(t, await bootstrap(actor, { origin: actor.origin }), 'GATE-EMBED-BOOTSTRAP');
        const { claims } = expectToken(t, ex, 'GATE-EMBED-BOOTSTRAP');
        expectCsp(t, ex, actor.partner.allowedOrigins!, 'GATE-EMBED-CSP');
        const exp = Number(claims.exp);
        t.expect.that(Number.isFinite(exp), 'the embed token carries exp', { requirement: 'GATE-EMBED-TOKEN-LIFETIME', actual: claims.exp });
        // exp − iat, both the target's; without iat, exp against the target's clock while the bootstrap was answered.
        const allowed = { min: HOUR_S - LIFETIME_SLACK_S, max: HOUR_S + LIFETIME_SLACK_S };
        if (Number.isFinite(Number(claims.iat))) {
          const lives = exp - Number(claims.iat);
          t.expect.that(lives >= allowed.min && lives <= allowed.max, 'the embed token lives 1 hour (exp − iat)', {
            requirement: 'GATE-EMBED-TOKEN-LIFETIME',
            expected: HOUR_S,
            actual: lives,
          });
        } else {
          const span = spanOf(t, actor.client, ex, TOKEN_LIFETIME_RULE);
          const lives = { low: exp - span.high / 1000, high: exp - span.low / 1000 };
          expectOnTargetClock(t, actor.client, TOKEN_LIFETIME_RULE, lives, allowed, "the embed token lives 1 hour (exp − its issue, on the target's clock)", {
            expected: HOUR_S,
          });
        }
        // Not a server credential: as the bearer of a secret-key route it is refused (401 not a credential, or 403).
        const N = 'GATE-EMBED-TOKEN-NOT-SERVER-CREDENTIAL';
        const { token } = findJwt(ex.json)!;
        const asKey = await actor.client.request({ method: 'GET', path: '/gate_sessions', auth: { bearer: token }, retry: false });
        t.expect.status(asKey, [401, 403], N);
        expectGateError(t, asKey, asKey.status, N);
        t.observe('gate-embed-token-as-bearer-status', asKey.status);
      },
    }),
    check({
      name: 'the origin must match exactly: a subdomain, another scheme, another port, a longer host or no origin gives 403, still with the policy',
      requirements: ['GATE-EMBED-ORIGIN-EXACT', 'GATE-EMBED-ORIGIN-NO-WILDCARD', 'GATE-EMBED-CSP'],
      needs: ['gateEmbed'],
      async run({ gateEmbed: actor }, t: CheckTools) {
        const allowed = actor.partner.allowedOrigins!;
        for (const v of near(actor.origin)) {
          if (allowed.includes(v.origin)) continue;
          const ex = await bootstrap(actor, { origin: v.origin });
          expectGateError(t, ex, 403, v.requirement);
          t.expect.that(!findJwt(ex.json), `no embed token for ${v.what}`, { requirement: v.requirement, exchange: ex });
          expectCsp(t, ex, allowed, 'GATE-EMBED-CSP');
        }
        const none = await bootstrap(actor, {});
        expectGateError(t, none, 403, 'GATE-EMBED-ORIGIN-EXACT');
        t.expect.that(!findJwt(none.json), 'no embed token without an origin', { requirement: 'GATE-EMBED-ORIGIN-EXACT', exchange: none });
      },
    }),
    check({
      name: 'without Origin, a Referer on an allowed origin is accepted',
      requirements: ['GATE-EMBED-REFERER-MATCH'],
      needs: ['gateEmbed'],
      async run({ gateEmbed: actor }, t: CheckTools) {
        const ex = expect2xx(t, await bootstrap(actor, { referer: `${actor.origin}/checkout?step=pay` }), 'GATE-EMBED-REFERER-MATCH');
        expectToken(t, ex, 'GATE-EMBED-REFERER-MATCH');
      },
    }),
    check({
      name: 'a secret key on /embed/bootstrap is refused (a 4xx error, no token)',
      requirements: ['GATE-EMBED-PK-ONLY'],
      needs: ['gateEmbed'],
      async run({ gateEmbed: actor }, t: CheckTools) {
        const R = 'GATE-EMBED-PK-ONLY';
        const ex = await bootstrap(actor, { origin: actor.origin }, {}, 'secret');
        // "An integration error": the status is not named. 401 (not this route's credential), 403 (a known key without
        // the right) and 400 (a malformed request) are each a reading of it.
        t.expect.status(ex, [400, 401, 403], R);
        expectGateError(t, ex, ex.status, R);
        t.expect.that(!findJwt(ex.json), 'no embed token is issued', { requirement: R, exchange: ex });
        t.observe('gate-embed-secret-key-status', ex.status);
      },
    }),
    check({
      name: 'a bootstrap without a key, from an allowed origin, gives 401 unauthorized',
      requirements: ['GATE-EMBED-NO-KEY-401'],
      needs: ['gateEmbed'],
      async run({ gateEmbed: actor }, t: CheckTools) {
        const R = 'GATE-EMBED-NO-KEY-401';
        const ex = await actor.client.request({
          method: 'POST',
          path: '/embed/bootstrap',
          body: {},
          headers: { origin: actor.origin },
          // Retried (its 429 too): keyless requests share one client (an address, say) whose windows rampart cannot pace.
          auth: 'none',
        });
        expectGateError(t, ex, 401, R);
        t.expect.that(!findJwt(ex.json), 'no embed token is issued', { requirement: R, exchange: ex });
      },
    }),
    check({
      name: "clientSecret binds the token to its session and answers its context (terms, mode, owner, expiry); another partner's session clientSecret is refused (403 or 404)",
      requirements: [
        'GATE-EMBED-CLIENT-SECRET-BINDS',
        'GATE-EMBED-CONTEXT',
        'GATE-SESS-ECHO-TERMS',
        'GATE-EMBED-CLIENT-SECRET-FOREIGN-REFUSED',
        'GATE-CONV-OBJECT-DISCRIMINATOR',
      ],
      needs: ['gateEmbed', 'gateOtherTenant'],
      async run({ gateEmbed: actor, gateOtherTenant: other }, t: CheckTools) {
        // A session with every term the context may carry: flow, and a token constraint the target itself offers.
        const terms: Record<string, string> = { flow: 'on_ramp', ...(await tokenTerms(t, actor)) };
        if (!terms.target_token)
          t.observe(
            'gate-embed-context-target-terms',
            'no active on_ramp asset with a network in GET /capabilities/assets: the session binds no token constraint',
          );
        const created = await createSession(t, actor, 'GATE-EMBED-CLIENT-SECRET-BINDS', terms);
        const { session } = created;
        expectTermsEchoed(t, session, sessionBody(t, terms), created.exchange, 'GATE-SESS-ECHO-TERMS');
        const ex = expect2xx(t, await bootstrap(actor, { origin: actor.origin }, { clientSecret: session.client_secret }), 'GATE-EMBED-CLIENT-SECRET-BINDS');
        const jwt = expectToken(t, ex, 'GATE-EMBED-CLIENT-SECRET-BINDS');
        t.expect.that(stringsIn(ex.json).includes(session.id), 'the session context names the bound session', {
          requirement: 'GATE-EMBED-CLIENT-SECRET-BINDS',
          exchange: ex,
        });
        expectContext(t, ex, session, jwt.claims, 'GATE-EMBED-CONTEXT');
        // Its field names are not shown, but it is a single-object response: it carries the object discriminator.
        expectObjectDiscriminator(t, ex, 'the embed bootstrap');

        const R = 'GATE-EMBED-CLIENT-SECRET-FOREIGN-REFUSED';
        const foreign = (await createSession(t, other, R)).session;
        const refused = await bootstrap(actor, { origin: actor.origin }, { clientSecret: foreign.client_secret });
        // Authentication rule 3 says a session of another partner gives 403; the Errors table says cross-tenant is 404.
        t.expect.status(refused, [403, 404], R);
        expectGateError(t, refused, refused.status, R);
        t.expect.that(!stringsIn(refused.json).includes(foreign.id) && !findJwt(refused.json), "nothing of the other partner's session is answered", {
          requirement: R,
          exchange: refused,
        });
        t.observe('gate-embed-foreign-client-secret-status', refused.status, '403 (Authentication rule 3) or 404 (cross-tenant): both documented');
      },
    }),
    check({
      name: 'refresh rotates the embed token while the session is open, and not after it is cancelled',
      requirements: ['GATE-EMBED-REFRESH-OPEN-ONLY', 'GATE-CONV-OBJECT-DISCRIMINATOR'],
      needs: ['gateEmbed'],
      async run({ gateEmbed: actor }, t: CheckTools) {
        const R = 'GATE-EMBED-REFRESH-OPEN-ONLY';
        const { session } = await createSession(t, actor, R);
        const boot = expect2xx(t, await bootstrap(actor, { origin: actor.origin }, { clientSecret: session.client_secret }), R);
        const first = expectToken(t, boot, R);
        const refresh = (token: string) =>
          actor.client.request({
            method: 'POST',
            path: '/embed/refresh',
            auth: 'none',
            headers: { 'x-embed-token': token, origin: actor.origin },
            retry: false,
          });
        const rotated = expect2xx(t, await refresh(first.token), R);
        expectObjectDiscriminator(t, rotated, 'POST /embed/refresh', { shapeNotShown: true });
        const second = expectToken(t, rotated, R);
        t.expect.that(second.token !== first.token, 'refresh answers a new token', { requirement: R, exchange: rotated });
        // The cancel response is not shown: any 2xx; the point is that the session is no longer open.
        expect2xx(t, await actor.client.post(sessionPath(session.id, '/cancel'), undefined, { retry: false }), R);
        const after = await refresh(second.token);
        t.expect.that(after.status >= 400 && after.status < 500, 'refresh after the session was cancelled is refused with a 4xx', {
          requirement: R,
          actual: after.status,
          exchange: after,
        });
        t.expect.that(!findJwt(after.json), 'no new token after the session closed', { requirement: R, exchange: after });
        t.observe('gate-embed-refresh-closed-status', after.status, 'the refusal status is not shown');
      },
    }),
  ],
});
