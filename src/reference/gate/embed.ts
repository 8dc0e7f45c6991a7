// Embed: POST /embed/bootstrap (publishable key, exact origin match,
// clientSecret binding, expiry on bootstrap) and POST /embed/refresh (embed
// token while the bound session is open). Every embed response, errors
// included, carries the partner's frame-ancestors policy.
//
// Not shown — chosen (also in README.md):
// - Bootstrap response: { object: 'embed_session', embed_token, expires_at, partner_id, mode, session_id,
//   amount, currency, target_token, target_network, return_url, flow }; 200. Without clientSecret the token is
//   bound to the partner only (session fields null).
// - An unknown clientSecret gives 404; another partner's gives 403 (spec rule 3). A session that is not open
//   (including one that just expired on this call) gives 409 session_not_open.
// - Embed token: HS256 JWT { iss: 'gate', sub: session id or partner, pid, mode, sid, iat, exp, jti }.
//   Refresh takes X-Embed-Token, no body, and answers the same shape with a new token; 401 for a missing,
//   malformed, forged or expired token; 409 when the bound session is not open or past expires_at.
// - Before the partner is known (bad credential) the policy is frame-ancestors 'none'.
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { GATE_LIMITS } from '../../model/limits.js';
import { choiceOf } from '../kit/dialect.js';
import { HttpError, jsonObject, type Reply, type Req } from '../kit/http.js';
import { expireOnRead } from './sessions.js';
import { embedSessionStatus, noteEmbedBound } from './blindSessionCopies.js';
import type { GateArea, GateCaller, GateWorld, SessionRecord } from './world.js';

interface EmbedClaims {
  iss: string;
  sub: string;
  pid: string;
  mode: 'test' | 'live';
  sid: string | null;
  iat: number;
  exp: number;
  jti: string;
}

const b64url = (b: Buffer | string) => Buffer.from(b).toString('base64url');

function sign(key: Buffer, claims: EmbedClaims): string {
  const head = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const body = b64url(JSON.stringify(claims));
  const sig = createHmac('sha256', key).update(`${head}.${body}`).digest('base64url');
  return `${head}.${body}.${sig}`;
}

function verify(key: Buffer, token: string, nowS: number): EmbedClaims | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [head, body, sig] = parts as [string, string, string];
  const expected = createHmac('sha256', key).update(`${head}.${body}`).digest();
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const h = JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as { alg?: string };
    if (h.alg !== 'HS256') return null;
    const c = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as EmbedClaims;
    if (typeof c.exp !== 'number' || c.exp <= nowS) return null;
    return c;
  } catch {
    return null;
  }
}

/** Origin of the request: the Origin header, else the origin of Referer. */
function requestOrigin(req: Req, useReferer: boolean): string | null {
  const o = req.headers.origin;
  if (typeof o === 'string' && o !== '' && o !== 'null') return o;
  if (!useReferer) return null;
  const r = req.headers.referer;
  if (typeof r !== 'string' || r === '') return null;
  try {
    return new URL(r).origin;
  } catch {
    return null;
  }
}

function originAllowed(world: GateWorld, allowed: string[], origin: string): boolean {
  if (allowed.includes(origin)) return true;
  if (world.faults.has('embed-origin-prefix-match') && allowed.some((a) => origin.startsWith(a))) return true;
  if (world.faults.has('embed-origin-subdomain-match')) {
    try {
      const o = new URL(origin);
      return allowed.some((a) => {
        const u = new URL(a);
        return u.protocol === o.protocol && o.host.endsWith(`.${u.host}`);
      });
    } catch {
      return false;
    }
  }
  return false;
}

/** The bootstrap's field names in camelCase (gate.embed.fieldNames: the names are not shown). */
const CAMEL: Record<string, string> = {
  embed_token: 'embedToken',
  expires_at: 'expiresAt',
  partner_id: 'partnerId',
  session_id: 'sessionId',
  target_token: 'targetToken',
  target_network: 'targetNetwork',
  return_url: 'returnUrl',
};

/** The embed session as the world names its fields: snake_case, or camelCase. */
function named(world: GateWorld, v: Record<string, unknown>): Record<string, unknown> {
  if (choiceOf(world.profile, 'gate.embed.fieldNames') !== 'camel') return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [CAMEL[k] ?? k, x]));
}

/** Reading (gate.embed.refresh): the refresh's answer is not shown — the bootstrap's shape, or the new token and its expiry alone. */
function refreshAnswer(world: GateWorld, issued: Record<string, unknown>): Record<string, unknown> {
  if (choiceOf(world.profile, 'gate.embed.refresh') !== 'token-only') return issued;
  return { object: 'embed_token', embed_token: issued.embed_token, expires_at: issued.expires_at };
}

function cspFor(world: GateWorld, caller: GateCaller | null): string {
  if (world.faults.has('embed-csp-wildcard')) return 'frame-ancestors *';
  const origins = caller?.partner.allowedOrigins ?? [];
  return `frame-ancestors ${origins.length ? origins.join(' ') : "'none'"}`;
}

export const area: GateArea = {
  name: 'embed',
  faults: [
    {
      name: 'embed-secret-key-accepted',
      service: 'gate',
      requirements: ['GATE-EMBED-PK-ONLY'],
      description: 'POST /embed/bootstrap accepts a secret key.',
      suite: 'conformance',
    },
    {
      name: 'embed-origin-prefix-match',
      service: 'gate',
      requirements: ['GATE-EMBED-ORIGIN-EXACT'],
      description: 'An origin that merely starts with an allowed origin (e.g. https://shop01.example.test.evil.test) is accepted.',
      suite: 'conformance',
    },
    {
      name: 'embed-origin-subdomain-match',
      service: 'gate',
      requirements: ['GATE-EMBED-ORIGIN-NO-WILDCARD'],
      description: 'Subdomains of an allowed origin are accepted (wildcard matching).',
      suite: 'conformance',
    },
    {
      name: 'embed-referer-ignored',
      service: 'gate',
      requirements: ['GATE-EMBED-REFERER-MATCH'],
      description: 'A request carrying only Referer is refused even when its origin is allowed.',
      suite: 'conformance',
    },
    {
      name: 'embed-missing-origin-accepted',
      service: 'gate',
      requirements: ['GATE-EMBED-ORIGIN-EXACT'],
      description: 'A bootstrap without Origin or Referer is accepted.',
      suite: 'conformance',
    },
    {
      name: 'embed-csp-missing-on-error',
      service: 'gate',
      requirements: ['GATE-EMBED-CSP'],
      description: 'Error responses of the embed routes carry no frame-ancestors policy.',
      suite: 'conformance',
    },
    {
      name: 'embed-csp-wildcard',
      service: 'gate',
      requirements: ['GATE-EMBED-CSP'],
      description: "The frame-ancestors policy is * instead of the partner's origins.",
      suite: 'conformance',
    },
    {
      name: 'embed-client-secret-cross-partner',
      service: 'gate',
      requirements: ['GATE-EMBED-CLIENT-SECRET-FOREIGN-REFUSED'],
      description: "Another partner's clientSecret bootstraps that partner's session.",
      suite: 'conformance',
    },
    {
      name: 'embed-no-expiry-on-bootstrap',
      service: 'gate',
      requirements: ['GATE-SESS-EXPIRE-ON-BOOTSTRAP', 'GATE-EVT-SESSION-EXPIRED'],
      description: 'Bootstrap past expires_at succeeds and the session stays open (no gate_session.expired).',
      suite: 'conformance',
    },
    {
      name: 'embed-token-lifetime-24h',
      service: 'gate',
      requirements: ['GATE-EMBED-TOKEN-LIFETIME'],
      description: 'Embed tokens live 24 h instead of 1 h.',
      suite: 'conformance',
    },
    {
      name: 'embed-token-opaque',
      service: 'gate',
      requirements: ['GATE-EMBED-BOOTSTRAP'],
      description: 'The embed token is an opaque random string instead of a JWT.',
      suite: 'conformance',
    },
    {
      name: 'embed-client-secret-not-bound',
      service: 'gate',
      requirements: ['GATE-EMBED-CLIENT-SECRET-BINDS'],
      description: 'A bootstrap with a valid clientSecret answers a partner-only token: no session context.',
      suite: 'conformance',
    },
    {
      name: 'embed-context-no-amount',
      service: 'gate',
      requirements: ['GATE-EMBED-CONTEXT'],
      description: "The bootstrap's session context carries no amount and currency.",
      suite: 'conformance',
    },
    {
      name: 'embed-refresh-after-session-closed',
      service: 'gate',
      requirements: ['GATE-EMBED-REFRESH-OPEN-ONLY'],
      description: 'POST /embed/refresh rotates the token after the bound session was cancelled or completed.',
      suite: 'conformance',
    },
    {
      name: 'embed-bootstrap-no-object',
      service: 'gate',
      requirements: ['GATE-CONV-OBJECT-DISCRIMINATOR'],
      description: 'POST /embed/bootstrap answers the embed session without its object discriminator.',
      suite: 'conformance',
    },
    {
      name: 'embed-no-key-403',
      service: 'gate',
      requirements: ['GATE-EMBED-NO-KEY-401'],
      description: 'POST /embed/bootstrap without any key is refused 403 forbidden instead of 401 unauthorized.',
      suite: 'conformance',
    },
    {
      name: 'embed-refresh-no-object',
      service: 'gate',
      requirements: ['GATE-CONV-OBJECT-DISCRIMINATOR'],
      description: 'POST /embed/refresh answers the rotated embed session without its object discriminator.',
      suite: 'conformance',
    },
  ],
  register(router, world) {
    const key = randomBytes(32);
    const bySecret = new Map<string, SessionRecord>();
    const lifetimeMs = () => (world.faults.has('embed-token-lifetime-24h') ? 24 * 3600_000 : GATE_LIMITS.embedTokenLifetimeMs);

    const issue = (caller: GateCaller, s: SessionRecord | null): Record<string, unknown> => {
      const nowMs = world.clock.now();
      const iat = Math.floor(nowMs / 1000);
      const exp = iat + Math.floor(lifetimeMs() / 1000);
      const token = world.faults.has('embed-token-opaque')
        ? `et_${randomBytes(24).toString('hex')}`
        : sign(key, {
            iss: 'gate',
            sub: s?.id ?? caller.partner.name,
            pid: caller.partner.name,
            mode: caller.mode,
            sid: s?.id ?? null,
            iat,
            exp,
            jti: randomUUID(),
          });
      return {
        object: 'embed_session',
        embed_token: token,
        expires_at: world.iso(exp * 1000),
        partner_id: caller.partner.name,
        mode: caller.mode,
        session_id: s?.id ?? null,
        // Fault: the session context leaves out the bound amount and currency.
        amount: world.faults.has('embed-context-no-amount') || !s ? null : world.money(s.amount),
        currency: world.faults.has('embed-context-no-amount') ? null : (s?.currency ?? null),
        target_token: s?.targetToken ?? null,
        target_network: s?.targetNetwork ?? null,
        return_url: s?.returnUrl ?? null,
        flow: s?.flow ?? null,
      };
    };

    /** Run an embed handler so that its reply and its errors both carry the CSP header. */
    const withCsp = async (run: (setCaller: (c: GateCaller) => void) => Reply | Promise<Reply>): Promise<Reply> => {
      let caller: GateCaller | null = null;
      try {
        const reply = await run((c) => {
          caller = c;
        });
        return { ...reply, headers: { ...(reply.headers ?? {}), 'content-security-policy': cspFor(world, caller) } };
      } catch (err) {
        if (err instanceof HttpError && !world.faults.has('embed-csp-missing-on-error')) {
          throw new HttpError(err.status, err.message, err.code, err.type, { ...(err.headers ?? {}), 'content-security-policy': cspFor(world, caller) });
        }
        throw err;
      }
    };

    router.on('POST', '/embed/bootstrap', (req) =>
      withCsp((setCaller) => {
        // Fault: a bootstrap without any key is refused as forbidden (403), not as a missing credential (401).
        if (world.faults.has('embed-no-key-403') && req.headers.authorization === undefined) throw new HttpError(403, 'Not allowed.', 'forbidden');
        const caller = world.authPublishable(req);
        setCaller(caller);
        const origin = requestOrigin(req, !world.faults.has('embed-referer-ignored'));
        if (origin === null) {
          if (!world.faults.has('embed-missing-origin-accepted')) throw new HttpError(403, 'Origin or Referer header required.', 'origin_not_allowed');
        } else if (!originAllowed(world, caller.partner.allowedOrigins ?? [], origin)) {
          throw new HttpError(403, `Origin ${origin} is not an allowed domain of this partner.`, 'origin_not_allowed');
        }
        const body = jsonObject(req, true);
        const cs = body.clientSecret;
        const issueView = (s: SessionRecord | null) => {
          const v = issue(caller, s);
          if (world.faults.has('embed-bootstrap-no-object')) delete (v as Record<string, unknown>).object;
          return named(world, v);
        };
        if (cs === undefined || cs === null) return { status: 200, body: issueView(null) };
        if (typeof cs !== 'string' || !cs.startsWith(GATE_LIMITS.clientSecretPrefix))
          throw new HttpError(400, 'clientSecret must be a gsec_ client secret.', 'parameter_invalid');
        let s = bySecret.get(cs);
        if (!s) {
          // On a miss, re-index the sessions (picks up those created since the last miss).
          for (const x of world.sessions.values()) bySecret.set(x.clientSecret, x);
          s = bySecret.get(cs);
        }
        if (!s || s.mode !== caller.mode) throw new HttpError(404, 'No session matches this clientSecret.', 'resource_missing');
        if (s.partner !== caller.partner.name && !world.faults.has('embed-client-secret-cross-partner')) {
          throw new HttpError(403, 'This clientSecret belongs to a session of another partner.', 'session_forbidden');
        }
        const owner: GateCaller =
          s.partner === caller.partner.name ? caller : { partner: world.profile.gate.partners.find((p) => p.name === s.partner)!, mode: s.mode };
        if (!world.faults.has('embed-no-expiry-on-bootstrap')) expireOnRead(world, owner, s);
        if (s.status !== 'open') throw new HttpError(409, `Session ${s.id} is ${s.status}.`, 'session_not_open');
        noteEmbedBound(world, s);
        return { status: 200, body: issueView(world.faults.has('embed-client-secret-not-bound') ? null : s) };
      }),
    );

    router.on('POST', '/embed/refresh', (req) =>
      withCsp((setCaller) => {
        const token = req.headers['x-embed-token'];
        if (typeof token !== 'string' || token === '') throw new HttpError(401, 'Missing X-Embed-Token.', 'missing_credential');
        const claims = verify(key, token, Math.floor(world.clock.now() / 1000));
        if (!claims || claims.mode !== req.env) throw new HttpError(401, 'Invalid or expired embed token.', 'invalid_embed_token');
        const partner = world.profile.gate.partners.find((p) => p.name === claims.pid);
        if (!partner) throw new HttpError(401, 'Invalid or expired embed token.', 'invalid_embed_token');
        const caller: GateCaller = { partner, mode: claims.mode };
        setCaller(caller);
        let s: SessionRecord | null = null;
        if (claims.sid) {
          s = world.session(caller, claims.sid);
          const open = embedSessionStatus(world, s) === 'open' && world.clock.now() <= s.expiresAtMs;
          if (!open && !world.faults.has('embed-refresh-after-session-closed')) {
            throw new HttpError(409, `Session ${s.id} is no longer open.`, 'session_not_open');
          }
        }
        const refreshed = refreshAnswer(world, issue(caller, s));
        if (world.faults.has('embed-refresh-no-object')) delete refreshed.object;
        return { status: 200, body: named(world, refreshed) };
      }),
    );
  },
};
