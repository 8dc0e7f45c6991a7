// The Gate service's shared state and the helpers every Gate area uses:
// credential checks, tenant-scoped session lookup, event emission through the
// outbox and Idempotency-Key handling. Areas (one file per spec area) register
// routes against this world.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { GatePartner, Profile } from '../../profile/schema.js';
import { GATE_LIMITS } from '../../model/limits.js';
import type { Clock } from '../kit/clock.js';
import type { ActiveFaults, FaultDef } from '../kit/faults.js';
import { HttpError, type Reply, type Req, type Router } from '../kit/http.js';
import type { Delivery, WebhookOutbox } from '../kit/outbox.js';
import { choiceOf } from '../kit/dialect.js';
import { idMaker, moneyWriter, stampWriter, wholeSeconds } from './wire.js';
import { idempotencyRaceGap } from './raceFaults.js';

export type GateMode = 'test' | 'live';

export interface GateCaller {
  partner: GatePartner;
  mode: GateMode;
}

export interface SessionRecord {
  id: string;
  partner: string;
  mode: GateMode;
  status: 'open' | 'completed' | 'expired' | 'cancelled';
  expiresAtMs: number;
  createdAtMs: number;
  amount: string;
  currency: string;
  returnUrl: string;
  cancelUrl: string | null;
  flow: string | null;
  targetToken: string | null;
  targetNetwork: string | null;
  walletAddress: string | null;
  userReference: string | null;
  metadata: Record<string, unknown>;
  kycPreVerified: boolean;
  /** gsec_… secret binding a bootstrap call to this session; only in the creation response. */
  clientSecret: string;
  /** gate_session.expired has been emitted (it fires once). */
  expiredEventSent: boolean;
  /** Set when a linked buy/sell succeeded. */
  txRefid: string | null;
  /** Creation order, to break createdAtMs ties in lists. */
  seq: number;
}

/**
 * A partner transaction (identified by refid). The wire view is the record's
 * enumerable fields minus internal ones (partner, scope); sessionId,
 * createdAtMs and seq are non-enumerable (see newTransaction) so they stay off the wire.
 */
export interface TransactionRecord {
  refid: string;
  partner: string;
  mode: GateMode;
  sessionId: string;
  createdAtMs: number;
  /** `${partner}\u0000${mode}`: the tenant scope the transaction areas filter on. */
  scope: string;
  gate_session_id: string;
  status: 'completed';
  flow: string | null;
  amount: string;
  currency: string;
  created_at: string;
  seq: number;
}

export interface BrandingState {
  logo_url: string | null;
  primary_color: string | null;
  secondary_color: string | null;
  accent_color: string | null;
  brand_name: string | null;
}

/** Per (partner, mode) settings that the API can change. */
export interface PartnerSettings {
  webhookUrl: string | null;
  webhookSecret: string;
  branding: BrandingState;
  /** Usage counters for GET /dashboard/usage. */
  requests: number;
  sessionsCreated: number;
}

export interface GateWorld {
  readonly profile: Profile;
  readonly faults: ActiveFaults;
  readonly clock: Clock;
  readonly outbox: WebhookOutbox;
  /** Secret-key auth for req.env: 401 missing/malformed/unknown credential; 403 revoked key, mode mismatch, or a publishable key on a secret route; opts.rail adds 403 (code feature_not_available) without rail entitlement. */
  authSecret(req: Req, opts?: { rail?: boolean }): GateCaller;
  /**
   * Partners (name and environment) whose next secret-key request fails on the server: the second world's 5xx
   * control (reference.controlDialect 'own') arms it instead of failing itself.
   */
  readonly armedFailures: Set<string>;
  /** Publishable-key auth (embed bootstrap): 401 missing/malformed/unknown; 403 revoked, mode mismatch or a secret key. */
  authPublishable(req: Req): GateCaller;
  /** The caller's session; 404 when missing, another partner's or another environment's. */
  session(caller: GateCaller, id: string): SessionRecord;
  /** GateSession JSON (no client_secret). */
  sessionView(s: SessionRecord): Record<string, unknown>;
  /** Envelope { id: uuid, type, created_at: unix seconds integer, data } sent through the outbox to the partner's webhook_url (no-op when none is configured). */
  emit(caller: GateCaller, type: string, data: unknown): void;
  /** Like emit, returning the delivery (null when no webhook_url is configured). */
  emitDelivery(caller: GateCaller, type: string, data: unknown): Delivery | null;
  /**
   * Idempotency-Key per (partner, mode, scope, key): same key + same fingerprint → the stored reply; different fingerprint → 409
   * conflict (or, where the world checks the body first — gate.idempotency.order — the body's 400 from `validate`); concurrent
   * duplicates create one object; missing key → 400 when required.
   */
  idempotent(
    caller: GateCaller,
    req: Req,
    scope: string,
    opts: { required: boolean; validate?: () => void },
    create: () => Reply | Promise<Reply>,
  ): Promise<Reply>;
  /** Transactions created by completion (tx_refid); read by GET /transactions. */
  readonly transactions: Map<string, TransactionRecord>;
  /** Every session, by id. */
  readonly sessions: Map<string, SessionRecord>;
  /** Mutable settings of a partner in one environment. */
  settings(caller: GateCaller): PartnerSettings;
  /** Record a completed transaction for a session (sandbox completion). */
  newTransaction(s: SessionRecord): TransactionRecord;
  newId(prefix: string): string;
  /** A timestamp as the world writes it (gate.timestamps.precision). */
  iso(ms?: number): string;
  /** A moment a record keeps: now (or ms), whole seconds where the world's timestamps are (so what it writes is what it keeps). */
  moment(ms?: number): number;
  /** A money string as the world writes it (gate.money.precision). */
  money(d: string): string;
  /** Monotonic creation counter for list ordering. */
  nextSeq(): number;
}

export interface GateArea {
  name: string;
  faults: FaultDef[];
  register(router: Router, world: GateWorld): void;
}

interface KeyEntry {
  partner: GatePartner;
  kind: 'secret' | 'publishable';
  mode: GateMode;
  revoked: boolean;
}

interface IdemEntry {
  fingerprint: string;
  reply: Promise<Reply>;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function randomAlnum(n: number): string {
  const bytes = randomBytes(n);
  let s = '';
  for (let i = 0; i < n; i++) s += ALNUM[bytes[i]! % ALNUM.length];
  return s;
}

/** Key-sorted JSON so that the same body with reordered keys has the same fingerprint. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const keys = Object.keys(v as object).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'undefined';
}

function fingerprintOf(req: Req): string {
  let bodyPart: string;
  const raw = req.rawBody.toString('utf8');
  try {
    bodyPart = raw.length === 0 ? '' : canonical(JSON.parse(raw));
  } catch {
    bodyPart = raw;
  }
  return createHash('sha256').update(`${req.method} ${req.path}\n${bodyPart}`).digest('hex');
}

export function bearerToken(req: Req): string | null {
  const h = req.headers.authorization;
  if (typeof h !== 'string') return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m ? m[1]! : null;
}

/** What a world is made from. */
type WorldDeps = { profile: Profile; faults: ActiveFaults; clock: Clock; outbox: WebhookOutbox };

/** Every key of the profile's Gate partners: its partner, kind, mode, and whether it is revoked. */
function keyringOf(profile: Profile): Map<string, KeyEntry> {
  const keys = new Map<string, KeyEntry>();
  for (const p of profile.gate.partners) {
    const add = (k: string | undefined, kind: KeyEntry['kind'], mode: GateMode, revoked = false) => {
      if (k) keys.set(k, { partner: p, kind, mode, revoked });
    };
    add(p.secretKey, 'secret', 'test');
    // Several keys of one partner: each its own rate-limit client, all one tenant.
    for (const k of p.extraSecretKeys ?? []) add(k, 'secret', 'test');
    add(p.publishableKey, 'publishable', 'test');
    add(p.liveSecretKey, 'secret', 'live');
    add(p.livePublishableKey, 'publishable', 'live');
    if (p.revokedSecretKey) add(p.revokedSecretKey, 'secret', p.revokedSecretKey.startsWith('sk_live_') ? 'live' : 'test', true);
    if (p.revokedPublishableKey) add(p.revokedPublishableKey, 'publishable', p.revokedPublishableKey.startsWith('pk_live_') ? 'live' : 'test', true);
  }
  return keys;
}

/** The alternative secret-key header (its name is not shown: gate.auth.altSecretHeader), where the world takes one. */
function altSecretKey(profile: Profile, req: Req): string | null {
  if (choiceOf(profile, 'gate.auth.altSecretHeader') !== 'x-api-key') return null;
  const h = req.headers['x-api-key'];
  return typeof h === 'string' && h.trim().startsWith('sk_') ? h.trim() : null;
}

/** The key a request carries, checked: 401 missing, malformed or unknown; 403 revoked or of the other environment. */
function credential(keys: ReadonlyMap<string, KeyEntry>, faults: ActiveFaults, req: Req, profile: Profile): KeyEntry {
  const token = bearerToken(req) ?? altSecretKey(profile, req);
  if (!token)
    throw new HttpError(
      faults.has('auth-missing-credential-403') ? 403 : 401,
      'Missing credential: send Authorization: Bearer <API key>.',
      'missing_credential',
    );
  const badKeyStatus = faults.has('auth-malformed-key-403') ? 403 : 401;
  if (!GATE_LIMITS.keyPattern.test(token)) throw new HttpError(badKeyStatus, 'Malformed API key.', 'invalid_api_key');
  const entry = keys.get(token);
  if (!entry) throw new HttpError(badKeyStatus, 'Unknown API key.', 'invalid_api_key');
  if (entry.revoked && !faults.has('auth-revoked-key-accepted')) throw new HttpError(403, 'This API key has been revoked.', 'api_key_revoked');
  if (entry.mode !== req.env && !faults.has('auth-mode-mismatch-accepted')) {
    throw new HttpError(
      403,
      entry.mode === 'test' ? 'A test key cannot be used on the live environment.' : 'A live key cannot be used on the sandbox environment.',
      'mode_mismatch',
    );
  }
  return entry;
}

/** Secret-key and publishable-key authentication of a request. */
function authentication(
  keys: ReadonlyMap<string, KeyEntry>,
  { faults, profile }: WorldDeps,
  armed: Set<string>,
): Pick<GateWorld, 'authSecret' | 'authPublishable' | 'armedFailures'> {
  return {
    armedFailures: armed,
    authSecret(req, opts) {
      const entry = credential(keys, faults, req, profile);
      if (entry.kind !== 'secret' && !faults.has('auth-publishable-key-on-secret-route')) {
        throw new HttpError(403, 'A publishable key cannot be used on this route; use a secret key.', 'secret_key_required');
      }
      // An armed failure (the second world's 5xx control): this request fails on the server, as an unexpected exception.
      if (armed.delete(`${entry.partner.name}\u0000${req.env}`))
        throw new TypeError(`Cannot read properties of undefined (reading 'ledger') for ${entry.partner.name}`);
      if (opts?.rail && entry.partner.rails !== true) {
        throw new HttpError(403, 'Rail access is not enabled for this account.', 'feature_not_available');
      }
      return { partner: entry.partner, mode: req.env };
    },

    authPublishable(req) {
      const entry = credential(keys, faults, req, profile);
      if (entry.kind !== 'publishable' && !faults.has('embed-secret-key-accepted')) {
        throw new HttpError(403, 'A secret key must not be used from the browser; use a publishable key.', 'publishable_key_required');
      }
      return { partner: entry.partner, mode: req.env };
    },
  };
}

/** The caller's session, and a session as the wire shows it. */
function sessionLookup(world: GateWorld, sessions: ReadonlyMap<string, SessionRecord>, faults: ActiveFaults): Pick<GateWorld, 'session' | 'sessionView'> {
  return {
    session(caller, id) {
      const s = sessions.get(id);
      if (!s && faults.has('err-unknown-id-400')) throw new HttpError(400, `Invalid gate session id: ${id}`, 'parameter_invalid');
      if (!s || s.mode !== caller.mode) throw new HttpError(404, `No such gate session: ${id}`, 'resource_missing');
      if (s.partner !== caller.partner.name && !faults.has('sess-cross-tenant-visible')) {
        if (faults.has('err-cross-tenant-403')) throw new HttpError(403, 'This session belongs to another partner.', 'forbidden');
        throw new HttpError(404, `No such gate session: ${id}`, 'resource_missing');
      }
      return s;
    },

    sessionView(s) {
      const stamp = (ms: number) => (faults.has('sess-timestamps-http-date') ? new Date(ms).toUTCString() : world.iso(ms));
      return {
        id: s.id,
        object: 'gate_session',
        partner_id: s.partner,
        mode: s.mode,
        amount: world.money(s.amount),
        currency: s.currency,
        return_url: s.returnUrl,
        cancel_url: s.cancelUrl,
        status: s.status,
        expires_at: stamp(s.expiresAtMs),
        // Reading (gate.session.createdAt): created_at is "string or null".
        created_at: choiceOf(world.profile, 'gate.session.createdAt') === 'null' ? null : stamp(s.createdAtMs),
        flow: s.flow,
        target_token: s.targetToken,
        target_network: s.targetNetwork,
        wallet_address: s.walletAddress,
        user_reference: s.userReference,
        metadata: s.metadata,
        kyc_pre_verified: s.kycPreVerified,
      };
    },
  };
}

/** Each partner's settings per environment, made on first use. */
function partnerSettings(): Pick<GateWorld, 'settings'> {
  const settingsByKey = new Map<string, PartnerSettings>();
  return {
    settings(caller) {
      const k = `${caller.mode}\u0000${caller.partner.name}`;
      let s = settingsByKey.get(k);
      if (!s) {
        s = {
          webhookUrl: null,
          webhookSecret: caller.partner.webhookSecret ?? `whsec_${randomAlnum(32)}`,
          branding: { logo_url: null, primary_color: null, secondary_color: null, accent_color: null, brand_name: null },
          requests: 0,
          sessionsCreated: 0,
        };
        settingsByKey.set(k, s);
      }
      return s;
    },
  };
}

/**
 * "HTTPS required in live mode", enforced at delivery (reference.liveHttpWebhooks 'undelivered'): a live http webhook_url
 * the settings call accepted is never sent to. Null when nothing may be sent (none configured, or that one). The fault
 * dash-live-http-accepted accepts and sends to it.
 */
export function deliverableUrl(world: GateWorld, caller: GateCaller): string | null {
  const url = world.settings(caller).webhookUrl;
  const plainLive = caller.mode === 'live' && !!url && url.toLowerCase().startsWith('http:');
  return plainLive && !world.faults.has('dash-live-http-accepted') ? null : url;
}

/** Events sent through the outbox to the partner's webhook_url, as the envelope says (or a seeded fault bends it). */
/** Event types the catalogue does not list (gate.events.unlisted) that the world sends after a listed one. */
const UNLISTED_AFTER: Record<string, string> = {
  'gate_session.cancelled': 'gate_session.updated',
  'gate_session.completed': 'gate_session.updated',
  'gate_session.expired': 'gate_session.updated',
  'customer.created': 'customer.kyc_updated',
};

function webhookEvents(world: GateWorld, { faults, clock, outbox, profile }: WorldDeps): Pick<GateWorld, 'emitDelivery' | 'emit'> {
  // Readings: the envelope carries more than id, type, created_at and data (gate.events.envelope); the service sends
  // event types its catalogue does not list (gate.events.unlisted).
  const extras = choiceOf(profile, 'gate.events.envelope') === 'with-extras';
  const unlisted = choiceOf(profile, 'gate.events.unlisted') === 'unlisted-too';
  return {
    emitDelivery(caller, type, data) {
      const st = world.settings(caller);
      const url = deliverableUrl(world, caller);
      if (!url) return null;
      // Faults: an event id that is no UUID; no type in the envelope; created_at as an ISO string; data wrapped in an array.
      const id = faults.has('evt-id-not-uuid') ? `evt_${randomAlnum(24)}` : randomUUID();
      const createdAt = faults.has('evt-created-at-iso') ? world.iso() : Math.floor(clock.now() / 1000);
      const envelope: Record<string, unknown> = {
        id,
        ...(extras ? { object: 'event', livemode: caller.mode === 'live', api_version: '2026-05-25' } : {}),
        type,
        created_at: createdAt,
        data: faults.has('evt-data-array') ? [data] : data,
      };
      if (faults.has('evt-type-missing')) delete envelope.type;
      const body = JSON.stringify(envelope);
      return outbox.enqueue({
        partner: caller.partner.name,
        service: 'gate',
        mode: caller.mode,
        url,
        secret: st.webhookSecret,
        eventId: id,
        eventType: type,
        body,
      });
    },

    emit(caller, type, data) {
      world.emitDelivery(caller, type, data);
      const after = UNLISTED_AFTER[type];
      if (unlisted && after) world.emitDelivery(caller, after, data);
      // Fault: a webhook.test nobody asked for rides along with every session cancellation.
      if (type === 'gate_session.cancelled' && faults.has('evt-webhook-test-unprompted')) {
        world.emitDelivery(caller, 'webhook.test', { livemode: false, message: 'This is a test event from Gate.' });
      }
    },
  };
}

/** Idempotency-Key handling: one stored reply per (partner, mode, scope, key). */
function idempotency({ faults, profile }: WorldDeps): Pick<GateWorld, 'idempotent'> {
  // Reading (gate.idempotency.order): a repeated key with another, invalid body gets the body's 400 before the conflict.
  const invalidFirst = choiceOf(profile, 'gate.idempotency.order') === 'invalid-first';
  const idem = new Map<string, IdemEntry>();
  return {
    async idempotent(caller, req, scope, opts, create) {
      const rawKey = req.headers['idempotency-key'];
      const key = typeof rawKey === 'string' ? rawKey.trim() : undefined;
      if (!key) {
        if (opts.required && !faults.has('idem-key-not-required')) {
          throw new HttpError(400, 'Missing required header: Idempotency-Key.', 'idempotency_key_missing');
        }
        return create();
      }
      if (faults.has('idem-key-ignored')) return create();
      const k = `${caller.partner.name}\u0000${caller.mode}\u0000${scope}\u0000${key}`;
      const fp = fingerprintOf(req);
      const found = idem.get(k);
      if (found) {
        if (found.fingerprint !== fp && !faults.has('idem-fingerprint-mismatch-replays')) {
          if (invalidFirst) opts.validate?.();
          throw new HttpError(409, 'Idempotency-Key reused with a different request.', 'idempotency_key_conflict');
        }
        const r = await found.reply;
        return { ...r, headers: { ...(r.headers ?? {}), 'idempotent-replayed': 'true' } };
      }
      // Race fault: the key found no record, and it is recorded a round trip later (src/reference/gate/raceFaults.ts).
      const gap = idempotencyRaceGap(faults, scope);
      if (gap) await gap;
      const reply = Promise.resolve().then(create);
      idem.set(k, { fingerprint: fp, reply });
      try {
        return await reply;
      } catch (err) {
        // A failed request leaves no object behind, so the key may be used again.
        idem.delete(k);
        throw err;
      }
    },
  };
}

/** New transactions, ids, timestamps and the creation counter. */
function records(
  world: GateWorld,
  { profile, clock }: WorldDeps,
  transactions: Map<string, TransactionRecord>,
): Pick<GateWorld, 'newTransaction' | 'newId' | 'iso' | 'moment' | 'money' | 'nextSeq'> {
  const newId = idMaker(profile, randomAlnum);
  const stamp = stampWriter(profile);
  const whole = wholeSeconds(profile);
  const money = moneyWriter(profile);
  let seq = 0;
  return {
    newTransaction(s) {
      const now = world.moment();
      const t = {
        refid: world.newId('tx'),
        partner: s.partner,
        mode: s.mode,
        scope: `${s.partner}\u0000${s.mode}`,
        gate_session_id: s.id,
        status: 'completed',
        flow: s.flow,
        amount: s.amount,
        currency: s.currency,
        created_at: world.iso(now),
      } as TransactionRecord;
      Object.defineProperties(t, {
        sessionId: { value: s.id, enumerable: false },
        createdAtMs: { value: now, enumerable: false },
        seq: { value: world.nextSeq(), enumerable: false },
      });
      transactions.set(t.refid, t);
      return t;
    },

    // Reading (gate.ids.style, or the idStyle knob): prefixed ids, or bare UUIDs for every resource.
    newId,

    iso(ms) {
      return stamp(ms ?? clock.now());
    },

    moment(ms) {
      const at = ms ?? clock.now();
      return whole ? Math.floor(at / 1000) * 1000 : at;
    },

    money,

    nextSeq() {
      return ++seq;
    },
  };
}

export function createGateWorld(deps: WorldDeps): GateWorld {
  const { profile, faults, clock, outbox } = deps;
  const sessions = new Map<string, SessionRecord>();
  const transactions = new Map<string, TransactionRecord>();
  // The parts reach one another through the world (an event reads the settings): it is whole before any route runs.
  const world = {} as GateWorld;
  const whole: GateWorld = {
    profile,
    faults,
    clock,
    outbox,
    transactions,
    sessions,
    ...authentication(keyringOf(profile), deps, new Set()),
    ...sessionLookup(world, sessions, faults),
    ...partnerSettings(),
    ...webhookEvents(world, deps),
    ...idempotency(deps),
    ...records(world, deps, transactions),
  };
  return Object.assign(world, whole);
}
