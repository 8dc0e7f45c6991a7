// Gate "Endpoints > Embed": bootstrap with the publishable key from an exactly
// matching origin (or referer), the frame-ancestors policy, clientSecret
// binding, the embed token's lifetime, and refresh while the session is open.
// Response fields are not shown: the token is found as the JWT in the body.
import type { Exchange } from '../../src/client/types.js';
import { defineSuite, type CheckContext } from '../../src/runner/check.js';
import { GATE_LIMITS } from '../../src/model/limits.js';
import { allowedOrigin, bootstrap, createSession, findJwt, sessionPath, stringsIn } from './support/sessions.js';

const HOUR_S = GATE_LIMITS.embedTokenLifetimeMs / 1000;
/** Clock and rounding slack on the 1 h token lifetime, in seconds. */
const LIFETIME_SLACK_S = 60;

function expectCsp(ctx: CheckContext, ex: Exchange, origins: readonly string[], requirement: string): void {
  const csp = ex.headers['content-security-policy'] ?? '';
  const fa = /frame-ancestors\s+([^;]*)/i.exec(csp)?.[1]?.trim().split(/\s+/) ?? [];
  ctx.expect.that(fa.length > 0, 'the response carries a frame-ancestors content security policy', { requirement, actual: csp || '(no Content-Security-Policy)', exchange: ex });
  for (const o of origins) {
    ctx.expect.that(fa.includes(o), `frame-ancestors names the allowed origin ${o}`, { requirement, actual: fa.join(' '), exchange: ex });
  }
}

function expectToken(ctx: CheckContext, ex: Exchange, requirement: string) {
  const jwt = findJwt(ex.json);
  ctx.expect.that(jwt, 'the response carries an embed token (a JWT)', { requirement, exchange: ex });
  return jwt;
}

/** Origins that differ from `origin` in one way each: none may pass an exact match. */
function near(origin: string): { what: string; origin: string; requirement: string }[] {
  const u = new URL(origin);
  const port = u.port ? `:${u.port}` : '';
  const otherPort = u.port ? String(Number(u.port) + 1) : u.protocol === 'https:' ? '8443' : '8080';
  return [
    { what: 'a subdomain', origin: `${u.protocol}//rampart.${u.hostname}${port}`, requirement: 'GATE-EMBED-ORIGIN-NO-WILDCARD' },
    { what: 'another scheme', origin: `${u.protocol === 'https:' ? 'http:' : 'https:'}//${u.hostname}${port}`, requirement: 'GATE-EMBED-ORIGIN-EXACT' },
    { what: 'another port', origin: `${u.protocol}//${u.hostname}:${otherPort}`, requirement: 'GATE-EMBED-ORIGIN-EXACT' },
    { what: 'a longer host', origin: `${u.protocol}//${u.hostname}.rampart.test${port}`, requirement: 'GATE-EMBED-ORIGIN-EXACT' },
  ];
}

export default defineSuite({
  service: 'gate',
  section: 'Endpoints > Embed',
  checks: [
    {
      name: 'bootstrap from an allowed origin answers a 1-hour embed token with a frame-ancestors policy naming the allowed origins',
      requirements: ['GATE-EMBED-BOOTSTRAP', 'GATE-EMBED-CSP', 'GATE-EMBED-TOKEN-LIFETIME'],
      needs: ['gate.publishableKey'],
      async run(ctx: CheckContext) {
        const actor = ctx.gate.embed();
        const origin = allowedOrigin(ctx, actor);
        const sentS = Date.now() / 1000;
        const ex = ctx.expect.status(await bootstrap(actor, { origin }), [200, 201], 'GATE-EMBED-BOOTSTRAP');
        expectCsp(ctx, ex, actor.partner.allowedOrigins!, 'GATE-EMBED-CSP');
        const { claims } = expectToken(ctx, ex, 'GATE-EMBED-BOOTSTRAP');
        const exp = Number(claims.exp);
        ctx.expect.that(Number.isFinite(exp), 'the embed token carries exp', { requirement: 'GATE-EMBED-TOKEN-LIFETIME', actual: claims.exp });
        const iat = Number.isFinite(Number(claims.iat)) ? Number(claims.iat) : sentS;
        ctx.expect.that(Math.abs(exp - iat - HOUR_S) <= LIFETIME_SLACK_S, 'the embed token lives 1 hour (exp − iat)', { requirement: 'GATE-EMBED-TOKEN-LIFETIME', expected: HOUR_S, actual: exp - iat });
      },
    },
    {
      name: 'the origin must match exactly: a subdomain, another scheme, another port, a longer host or no origin gives 403, still with the policy',
      requirements: ['GATE-EMBED-ORIGIN-EXACT', 'GATE-EMBED-ORIGIN-NO-WILDCARD', 'GATE-EMBED-CSP'],
      needs: ['gate.publishableKey'],
      async run(ctx: CheckContext) {
        const actor = ctx.gate.embed();
        const origin = allowedOrigin(ctx, actor);
        for (const v of near(origin)) {
          if (actor.partner.allowedOrigins!.includes(v.origin)) continue;
          const ex = await bootstrap(actor, { origin: v.origin });
          ctx.expect.error(ex, 403, 'forbidden', { requirement: v.requirement });
          expectCsp(ctx, ex, actor.partner.allowedOrigins!, 'GATE-EMBED-CSP');
        }
        ctx.expect.error(await bootstrap(actor, {}), 403, 'forbidden', { requirement: 'GATE-EMBED-ORIGIN-EXACT' });
      },
    },
    {
      name: 'without Origin, a Referer on an allowed origin is accepted',
      requirements: ['GATE-EMBED-REFERER-MATCH'],
      needs: ['gate.publishableKey'],
      async run(ctx: CheckContext) {
        const actor = ctx.gate.embed();
        const origin = allowedOrigin(ctx, actor);
        const ex = ctx.expect.status(await bootstrap(actor, { referer: `${origin}/checkout?step=pay` }), [200, 201], 'GATE-EMBED-REFERER-MATCH');
        expectToken(ctx, ex, 'GATE-EMBED-REFERER-MATCH');
      },
    },
    {
      name: 'a secret key on /embed/bootstrap is refused',
      requirements: ['GATE-EMBED-PK-ONLY'],
      needs: ['gate.publishableKey'],
      async run(ctx: CheckContext) {
        const actor = ctx.gate.embed();
        const origin = allowedOrigin(ctx, actor);
        const ex = await bootstrap(actor, { origin }, {}, 'secret');
        ctx.expect.that(ex.status === 401 || ex.status === 403, 'a secret key on the publishable-key route is refused (401 or 403)', { requirement: 'GATE-EMBED-PK-ONLY', actual: ex.status, exchange: ex });
        ctx.expect.error(ex, ex.status, ex.status === 401 ? 'unauthorized' : 'forbidden', { requirement: 'GATE-EMBED-PK-ONLY' });
        ctx.expect.that(!findJwt(ex.json), 'no embed token is issued', { requirement: 'GATE-EMBED-PK-ONLY', exchange: ex });
        ctx.observe('gate-embed-secret-key-status', ex.status);
      },
    },
    {
      name: "clientSecret binds the token to its session; another partner's session clientSecret gives 403",
      requirements: ['GATE-EMBED-CLIENT-SECRET-BINDS', 'GATE-EMBED-CLIENT-SECRET-FOREIGN-403'],
      needs: ['gate.publishableKey', 'gate.secondPartner'],
      async run(ctx: CheckContext) {
        const actor = ctx.gate.embed();
        const origin = allowedOrigin(ctx, actor);
        const { session } = await createSession(ctx, actor, 'GATE-EMBED-CLIENT-SECRET-BINDS');
        const ex = ctx.expect.status(await bootstrap(actor, { origin }, { clientSecret: session.client_secret }), [200, 201], 'GATE-EMBED-CLIENT-SECRET-BINDS');
        expectToken(ctx, ex, 'GATE-EMBED-CLIENT-SECRET-BINDS');
        ctx.expect.that(stringsIn(ex.json).includes(session.id), 'the session context names the bound session', { requirement: 'GATE-EMBED-CLIENT-SECRET-BINDS', exchange: ex });

        const other = ctx.gate.other();
        const foreign = (await createSession(ctx, other, 'GATE-EMBED-CLIENT-SECRET-FOREIGN-403')).session;
        const refused = await bootstrap(actor, { origin }, { clientSecret: foreign.client_secret });
        ctx.expect.error(refused, 403, 'forbidden', { requirement: 'GATE-EMBED-CLIENT-SECRET-FOREIGN-403' });
      },
    },
    {
      name: 'refresh rotates the embed token while the session is open, and not after it is cancelled',
      requirements: ['GATE-EMBED-REFRESH-OPEN-ONLY'],
      needs: ['gate.publishableKey'],
      async run(ctx: CheckContext) {
        const R = 'GATE-EMBED-REFRESH-OPEN-ONLY';
        const actor = ctx.gate.embed();
        const origin = allowedOrigin(ctx, actor);
        const { session } = await createSession(ctx, actor, R);
        const boot = ctx.expect.status(await bootstrap(actor, { origin }, { clientSecret: session.client_secret }), [200, 201], R);
        const first = expectToken(ctx, boot, R);
        const refresh = (token: string) => actor.client.request({ method: 'POST', path: '/embed/refresh', auth: 'none', headers: { 'x-embed-token': token, origin }, retry: false });
        const rotated = await refresh(first.token);
        ctx.expect.status(rotated, [200, 201], R);
        const second = expectToken(ctx, rotated, R);
        ctx.expect.that(second.token !== first.token, 'refresh answers a new token', { requirement: R, exchange: rotated });
        ctx.expect.status(await actor.client.post(sessionPath(session.id, '/cancel'), undefined, { retry: false }), [200, 201], R);
        const after = await refresh(second.token);
        ctx.expect.that(after.status >= 400, 'refresh after the session was cancelled is refused', { requirement: R, actual: after.status, exchange: after });
        ctx.expect.that(!findJwt(after.json), 'no new token after the session closed', { requirement: R, exchange: after });
        ctx.observe('gate-embed-refresh-closed-status', after.status, 'the refusal status is not shown');
      },
    },
  ],
});
