// Gate customers: CRM-style partner records with Idempotency-Key creation,
// reserved email/external_id (soft-deleted included), strict PATCH, soft delete.
//
// Not shown — chosen:
// - POST /customers body: `external_id`, `email` and `phone` (strings: every Customer holds them, immutable
//   after creation) are required; `first_name`/`last_name` (string|null ≤128), `country_code`
//   (^[A-Za-z]{2}$ or null, stored as sent) and `metadata` (object) are optional; no bound the spec does
//   not state. `kyc_status` and `mode` (server-managed) give 400; keys the spec does not name are ignored.
//   Idempotency-Key is optional (Stripe-like); with one, a repeat returns the original response.
//   Success is 201 with the Customer.
// - kyc_status starts as `not_started`.
// - Email uniqueness is case-insensitive; external_id uniqueness is exact.
// - GET /customers: newest first; `limit` 1–100 (default 10), `starting_after` (a customer id of the
//   caller, deleted ones included, else 400 invalid_cursor); out-of-range limit gives 400.
// - DELETE of an unknown id is 404; a repeat DELETE returns the same marker (same deleted_at).
// - customer.deleted carries the deleted marker.
import { choiceOf } from '../kit/dialect.js';
import { HttpError, jsonObject, type Reply, type Req } from '../kit/http.js';
import { listBounds, listOrdered } from './lists.js';
import type { GateArea, GateCaller, GateWorld } from './world.js';
import { CUSTOMER_FAULTS, HISTORY_CUSTOMERS } from './customerFaults.js';
import { customerCheckedBeforeGap, RACE, raceGap, sleepRaceGap } from './raceFaults.js';
import {
  cachedCustomerRead,
  createThroughCustomerCache,
  evictCustomerRead,
  externalIdIndexed,
  noteCustomerPatched,
  patchThroughCustomerCache,
  rememberCustomerRead,
} from './blindCustomerCopies.js';

interface CustomerRecord {
  id: string;
  /** Seeded as history at start (fault cust-list-stale-snapshot). */
  history?: true;
  scope: string;
  seq: number;
  mode: 'test' | 'live';
  partnerId: string;
  external_id: string;
  email: string;
  phone: string;
  first_name: string | null;
  last_name: string | null;
  country_code: string | null;
  kyc_status: string;
  metadata: Record<string, unknown>;
  created_at: string;
  /** The moment created_at stands for (the kyc move counts from it). */
  createdAtMs: number;
  updated_at: string;
  deleted_at: string | null;
}

interface CustomerStore {
  byId: Map<string, CustomerRecord>;
  seq: number;
}

const stores = new WeakMap<GateWorld, CustomerStore>();
function store(world: GateWorld): CustomerStore {
  let s = stores.get(world);
  if (!s) stores.set(world, (s = { byId: new Map(), seq: 0 }));
  return s;
}

/** Partner + environment scope key of a caller; every resource lives in exactly one. */
export function scopeOf(caller: GateCaller): string {
  return `${caller.partner.name}\u0000${caller.mode}`;
}

/**
 * Cursor page over items newest first, listed in the world's order (gate.lists.order) with its page size
 * (gate.lists.pageSize). `starting_after` must name an item of `all` (the caller's whole set, hidden ones included):
 * another is 400, or an empty page where `unknownCursor` says so.
 */
export function cursorPage<T extends { id: string }>(
  world: GateWorld,
  req: Req,
  newestFirst: T[],
  visible: (t: T) => boolean,
  unknownCursor: 'refused' | 'empty' = 'refused',
) {
  const all = listOrdered(world, newestFirst);
  const { max: maxLimit, def: defLimit } = listBounds(world);
  const limitQ = req.query.get('limit');
  let limit = defLimit;
  if (limitQ !== null) {
    if (!/^\d{1,4}$/.test(limitQ) || Number(limitQ) < 1 || Number(limitQ) > maxLimit) {
      throw new HttpError(400, `limit must be an integer between 1 and ${maxLimit}`, 'invalid_limit');
    }
    limit = Number(limitQ);
  }
  const after = req.query.get('starting_after');
  let start = 0;
  if (after !== null && after !== '') {
    const i = all.findIndex((t) => t.id === after);
    if (i < 0 && unknownCursor === 'refused') throw new HttpError(400, 'starting_after does not name an object of this list', 'invalid_cursor');
    start = i < 0 ? all.length : i + 1;
  }
  const rest = all.slice(start).filter(visible);
  return { data: rest.slice(0, limit), has_more: rest.length > limit };
}

function seedHistory(world: GateWorld): void {
  const s = store(world);
  for (const p of world.profile.gate.partners) {
    for (let i = 0; i < HISTORY_CUSTOMERS; i++) {
      const at = world.iso();
      const rec: CustomerRecord = {
        id: world.newId('cus'),
        history: true,
        scope: `${p.name}\u0000test`,
        seq: ++s.seq,
        mode: 'test',
        partnerId: p.name,
        external_id: `history-${p.name}-${i}`,
        email: `history-${i}@${p.name}.example.test`,
        phone: `+49151${String(1_000_000 + i)}`,
        first_name: null,
        last_name: null,
        country_code: null,
        kyc_status: kycValues(world).initial,
        metadata: {},
        created_at: at,
        createdAtMs: Date.parse(at),
        updated_at: at,
        deleted_at: null,
      };
      s.byId.set(rec.id, rec);
      if (world.faults.has('seq-cust-list-copy-stale-after-patch')) listCopy.set(rec, view(world, rec));
    }
  }
}

const NAME_MAX = 128;
const COUNTRY_RE = /^[A-Za-z]{2}$/;
const PATCHABLE = new Set(['first_name', 'last_name', 'country_code', 'metadata']);
/** Customer fields the spec calls server-managed: the partner cannot set them. */
const SERVER_MANAGED = new Set(['kyc_status', 'mode']);
const IMMUTABLE = new Set(['email', 'phone', 'external_id', 'kyc_status', 'mode']);

/** The kyc_status values of the world (gate.customer.kycValues; not shown): a new customer's, and the one it may move to. */
function kycValues(world: GateWorld): { initial: string; moved: string } {
  return choiceOf(world.profile, 'gate.customer.kycValues') === 'unverified'
    ? { initial: 'unverified', moved: 'in_review' }
    : { initial: 'not_started', moved: 'pending' };
}

/**
 * Reading (reference.customerKycPendingAfterSeconds, which the open point gate.customer.kycMoves sets): kyc_status,
 * server-managed, moves from its first value to the next on its own.
 */
function kycStatus(world: GateWorld, c: CustomerRecord): string {
  const after = world.profile.reference?.customerKycPendingAfterSeconds;
  const { initial, moved } = kycValues(world);
  if (after === undefined || c.kyc_status !== initial) return c.kyc_status;
  return world.clock.now() - c.createdAtMs >= after * 1000 ? moved : c.kyc_status;
}

/** A country_code as stored: as sent, or upper-cased (gate.customer.countryCase). */
function storedCountry(world: GateWorld, v: string | null): string | null {
  return v !== null && choiceOf(world.profile, 'gate.customer.countryCase') === 'uppercased' ? v.toUpperCase() : v;
}

function view(world: GateWorld, c: CustomerRecord) {
  const faults = world.faults;
  return {
    id: c.id,
    object: 'customer',
    // Fault: customers name their partner differently from the partner's sessions.
    partner_id: faults?.has('cust-partner-id-mismatch') ? `acct_${c.partnerId}` : c.partnerId,
    mode: c.mode,
    livemode: c.mode === 'live',
    external_id: c.external_id,
    email: c.email,
    phone: c.phone,
    first_name: c.first_name,
    last_name: c.last_name,
    country_code: c.country_code,
    kyc_status: kycStatus(world, c),
    metadata: structuredClone(c.metadata),
    created_at: c.created_at,
    updated_at: c.updated_at,
  };
}

/** The list's copy of each customer, made at creation (the sequence fault seq-cust-list-copy-stale-after-patch). */
const listCopy = new WeakMap<CustomerRecord, ReturnType<typeof view>>();

function marker(world: GateWorld, c: CustomerRecord) {
  // Reading (gate.customer.deletedAt): deleted_at is "string or null".
  const deletedAt = choiceOf(world.profile, 'gate.customer.deletedAt') === 'null' ? null : c.deleted_at;
  if (world.faults.has('cust-delete-marker-no-flag')) return { id: c.id, object: 'customer', deleted_at: deletedAt };
  return { id: c.id, object: 'customer', deleted: true, deleted_at: deletedAt };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/** Validates the optional profile fields shared by create and PATCH; pushes messages into errs. */
function checkProfileFields(body: Record<string, unknown>, errs: string[], lengthChecked: boolean, countryChecked = true): void {
  for (const k of ['first_name', 'last_name'] as const) {
    if (!(k in body)) continue;
    const v = body[k];
    if (v !== null && typeof v !== 'string') errs.push(`${k} must be a string or null`);
    else if (lengthChecked && typeof v === 'string' && v.length > NAME_MAX) errs.push(`${k} must be at most ${NAME_MAX} characters`);
  }
  if ('country_code' in body) {
    const v = body.country_code;
    if (v !== null && (typeof v !== 'string' || (countryChecked && !COUNTRY_RE.test(v)))) errs.push('country_code must match ^[A-Za-z]{2}$ or be null');
  }
  if ('metadata' in body && !isPlainObject(body.metadata)) errs.push('metadata must be an object');
}

function requireCustomer(world: GateWorld, caller: GateCaller, id: string, allowDeleted = false): CustomerRecord {
  const c = store(world).byId.get(id);
  if (c && c.scope !== scopeOf(caller) && world.faults.has('cust-foreign-403')) throw new HttpError(403, 'Not your customer', 'forbidden');
  if (!c || c.scope !== scopeOf(caller) || (c.deleted_at !== null && !allowDeleted)) {
    throw new HttpError(404, `No such customer: ${id}`, 'resource_missing');
  }
  return c;
}

export const area: GateArea = {
  name: 'customers',
  faults: CUSTOMER_FAULTS,
  register(router, world) {
    if (world.faults.has('cust-list-stale-snapshot')) seedHistory(world);
    const emitView = (caller: GateCaller, type: string, data: unknown) =>
      world.emit(caller, type, world.faults.has('cust-event-data-wrapped') ? { customer: data } : data);

    // Fault cust-idem-fingerprint-ignored: the first answer per key, whatever the body.
    const firstByKey = new Map<string, Promise<Reply>>();
    router.on('POST', '/customers', async (req) => {
      const caller = world.authSecret(req);
      const create = (): Reply | Promise<Reply> => newCustomer(world, caller, req, emitView);
      const key = req.headers['idempotency-key'];
      if (typeof key === 'string' && key !== '') {
        if (world.faults.has('cust-idem-key-ignored')) return create();
        if (world.faults.has('cust-idem-fingerprint-ignored')) {
          const k = `${scopeOf(caller)}\u0000${key}`;
          let first = firstByKey.get(k);
          if (!first) firstByKey.set(k, (first = Promise.resolve().then(create)));
          return first;
        }
      }
      return createThroughCustomerCache(
        world,
        scopeOf(caller),
        await world.idempotent(caller, req, 'customers', { required: false, validate: () => validateCustomer(world, jsonObject(req)) }, create),
      );
    });

    router.on('GET', '/customers', (req) => {
      const caller = world.authSecret(req);
      const scope = scopeOf(caller);
      // Fault: the list shows every partner's customers of the environment.
      const anyPartner = world.faults.has('cust-list-all-partners');
      const all = [...store(world).byId.values()].filter((c) => c.scope === scope || (anyPartner && c.mode === caller.mode)).sort((a, b) => b.seq - a.seq);
      const showDeleted = world.faults.has('cust-deleted-listed');
      const stale = world.faults.has('cust-list-stale-snapshot');
      // Reading (gate.customer.listCursor): a starting_after naming no customer of the caller is 400, or an empty page.
      const unknownCursor = choiceOf(world.profile, 'gate.customer.listCursor') === 'unknown-empty' ? 'empty' : 'refused';
      const page = cursorPage(world, req, all, (c) => (showDeleted || c.deleted_at === null) && (!stale || c.history === true), unknownCursor);
      // Fault: no list envelope (object, data, has_more, url), and no item is a Customer (a stub of id and email).
      if (world.faults.has('cust-list-bare-array')) return { status: 200, body: page.data.map((c) => ({ id: c.id, email: c.email })) };
      return {
        status: 200,
        body: {
          object: 'list',
          data: page.data.map((c) => listCopy.get(c) ?? view(world, c)),
          has_more: page.has_more,
          url: world.faults.has('cust-list-url-wrong') ? '/v1/customer' : '/v1/customers',
        },
      };
    });

    router.on('GET', '/customers/:id', (req) => {
      const caller = world.authSecret(req);
      if (world.faults.has('cust-missing-400') && !store(world).byId.has(req.params.id!)) throw new HttpError(400, 'Invalid customer id', 'parameter_invalid');
      const cached = cachedCustomerRead(world, scopeOf(caller), req.params.id!);
      if (cached) return { status: 200, body: cached };
      const v: Record<string, unknown> = view(world, requireCustomer(world, caller, req.params.id!, world.faults.has('cust-deleted-readable')));
      if (world.faults.has('cust-get-omits-livemode')) delete v.livemode;
      return { status: 200, body: rememberCustomerRead(world, scopeOf(caller), req.params.id!, v) };
    });

    router.on('PATCH', '/customers/:id', async (req) => patchThroughCustomerCache(world, await patchCustomer(world, req, emitView)));

    router.on('DELETE', '/customers/:id', (req) => {
      const caller = world.authSecret(req);
      const c = requireCustomer(world, caller, req.params.id!, !world.faults.has('cust-delete-not-idempotent'));
      if (c.deleted_at === null) {
        c.deleted_at = world.iso();
        evictCustomerRead(world, c.id);
        // Reading (gate.customer.deletedEventData): customer.deleted carries "object or its id" (data is an object: the id in one).
        const data = choiceOf(world.profile, 'gate.customer.deletedEventData') === 'id' ? { id: c.id } : marker(world, c);
        if (!world.faults.has('cust-deleted-event-missing')) emitView(caller, 'customer.deleted', data);
      }
      return { status: 200, body: marker(world, c) };
    });
  },
};

/** Sends a customer event: its data the customer (or, under a seeded fault, wrapped). */
type EmitView = (caller: GateCaller, type: string, data: unknown) => void;

/** A creation's body checked: 400 with every refusal joined. */
function validateCustomer(world: GateWorld, body: Record<string, unknown>): void {
  const errs: string[] = [];
  const kycSettable = world.faults.has('cust-kyc-status-settable');
  for (const k of Object.keys(body)) {
    if (k === 'kyc_status' && kycSettable && typeof body.kyc_status === 'string') continue;
    if (SERVER_MANAGED.has(k)) errs.push(`${k} is server-managed`);
  }
  for (const k of ['external_id', 'email', 'phone'] as const) if (typeof body[k] !== 'string') errs.push(`${k} is required (a string)`);
  // Reading (gate.customer.createFields 'country-required'): the fields a creation takes are not shown; this world needs a country.
  if (choiceOf(world.profile, 'gate.customer.createFields') === 'country-required' && body.country_code === undefined) errs.push('country_code is required');
  checkProfileFields(body, errs, true);
  if (errs.length) throw new HttpError(400, errs.join('; '), 'parameter_invalid');
}

/** POST /customers: the body checked, the identity unique in the partner's scope, the customer stored and announced. */
function newCustomer(world: GateWorld, caller: GateCaller, req: Req, emitView: EmitView): Reply | Promise<Reply> {
  const body = jsonObject(req);
  validateCustomer(world, body);
  const ext = body.external_id;
  const email = body.email;
  // Reading (gate.customer.phoneRepeat 'unique'): a repeated phone is refused like a repeated email.
  const phoneUnique = choiceOf(world.profile, 'gate.customer.phoneRepeat') === 'unique';

  const scope = scopeOf(caller);
  const s = store(world);
  const releaseDeleted = world.faults.has('cust-deleted-identity-released');
  // Which identities are checked: all of them, or (a race fault: the rest checked with the write after the gap) some.
  const unique = (only?: readonly string[]) => {
    const checks = (k: string) => !only || only.includes(k);
    for (const c of s.byId.values()) {
      if (c.scope !== scope) continue;
      if (c.deleted_at !== null && releaseDeleted) continue;
      if (checks('external_id') && c.external_id === ext && externalIdIndexed(world, c) && !world.faults.has('cust-duplicate-external-id-allowed'))
        throw new HttpError(409, 'A customer with this external_id already exists', 'customer_exists');
      if (checks('email') && c.email.toLowerCase() === (email as string).toLowerCase() && !world.faults.has('cust-duplicate-email-allowed')) {
        throw new HttpError(409, 'A customer with this email already exists', 'customer_exists');
      }
      if (checks('phone') && phoneUnique && c.phone === body.phone) throw new HttpError(409, 'A customer with this phone already exists', 'customer_exists');
    }
  };
  const beforeGap = customerCheckedBeforeGap(world.faults);
  if (!beforeGap) {
    unique();
    return writeCustomer(world, caller, body, emitView);
  }
  unique(beforeGap);
  const rest = ['email', 'external_id', 'phone'].filter((k) => !beforeGap.includes(k as never));
  return sleepRaceGap().then(() => {
    unique(rest);
    return writeCustomer(world, caller, body, emitView);
  });
}

/** The customer of a checked creation body, stored and announced. */
function writeCustomer(world: GateWorld, caller: GateCaller, body: Record<string, unknown>, emitView: EmitView): Reply {
  const kycSettable = world.faults.has('cust-kyc-status-settable');
  const ext = body.external_id;
  const email = body.email;
  const scope = scopeOf(caller);
  const s = store(world);
  const createdAtMs = world.moment();
  const now = world.iso(createdAtMs);
  const rec: CustomerRecord = {
    id: world.newId('cus'),
    scope,
    seq: ++s.seq,
    mode: caller.mode,
    partnerId: caller.partner.name,
    external_id: ext as string,
    email: email as string,
    phone: body.phone as string,
    first_name: (body.first_name as string | null | undefined) ?? null,
    last_name: (body.last_name as string | null | undefined) ?? null,
    country_code: typeof body.country_code === 'string' ? storedCountry(world, body.country_code) : null,
    kyc_status: kycSettable && typeof body.kyc_status === 'string' ? body.kyc_status : kycValues(world).initial,
    metadata: isPlainObject(body.metadata) && !world.faults.has('cust-create-metadata-dropped') ? structuredClone(body.metadata) : {},
    created_at: now,
    createdAtMs,
    updated_at: now,
    deleted_at: null,
  };
  s.byId.set(rec.id, rec);
  if (world.faults.has('seq-cust-list-copy-stale-after-patch')) listCopy.set(rec, view(world, rec));
  if (!world.faults.has('cust-created-event-missing')) emitView(caller, 'customer.created', view(world, rec));
  return { status: 201, body: view(world, rec) };
}

/** PATCH /customers/:id: only the patchable fields, checked; null clears; metadata replaced whole; customer.updated sent. */
function patchCustomer(world: GateWorld, req: Req, emitView: EmitView): Reply | Promise<Reply> {
  const caller = world.authSecret(req);
  // Reading (gate.customer.missingOrder): the customer is looked up before its body is checked, or after.
  const bodyFirst = choiceOf(world.profile, 'gate.customer.missingOrder') === '400-first';
  const found = bodyFirst ? undefined : requireCustomer(world, caller, req.params.id!);
  const body = jsonObject(req, true);
  const errs: string[] = [];
  for (const k of Object.keys(body)) {
    if (PATCHABLE.has(k)) continue;
    if (IMMUTABLE.has(k)) {
      if (!world.faults.has('cust-patch-immutable-accepted')) errs.push(`${k} cannot be changed`);
    } else if (!world.faults.has('cust-patch-unknown-key-accepted')) errs.push(`unknown field ${k}`);
  }
  checkProfileFields(body, errs, !world.faults.has('cust-name-length-unchecked'), !world.faults.has('cust-country-pattern-unchecked'));
  if (errs.length) throw new HttpError(400, errs.join('; '), 'parameter_invalid');
  const c = found ?? requireCustomer(world, caller, req.params.id!);
  // Race fault: the record read here is written back whole a round trip later (a DELETE in between is undone).
  const gap = raceGap(world.faults, RACE.customerPatch);
  if (gap) {
    const read = c.deleted_at;
    return gap.then(() => {
      const reply = applyPatch(world, caller, c, body, emitView);
      c.deleted_at = read;
      return reply;
    });
  }
  return applyPatch(world, caller, c, body, emitView);
}

/** A checked PATCH body applied to the customer: null clears, metadata replaced whole, customer.updated sent. */
function applyPatch(world: GateWorld, caller: GateCaller, c: CustomerRecord, body: Record<string, unknown>, emitView: EmitView): Reply {
  const keepOnNull = world.faults.has('cust-null-ignored');
  if (world.faults.has('cust-patch-omitted-cleared') && !('last_name' in body)) c.last_name = null;
  for (const k of ['first_name', 'last_name'] as const) {
    if (!(k in body)) continue;
    const v = body[k] as string | null;
    if (v === null && keepOnNull) continue;
    if (k === 'first_name' && world.faults.has('cust-patch-first-name-ignored')) continue;
    c[k] = v;
  }
  if ('country_code' in body) {
    const v = body.country_code as string | null;
    if (!(v === null && keepOnNull)) c.country_code = storedCountry(world, v);
  }
  if ('metadata' in body) {
    const m = structuredClone(body.metadata as Record<string, unknown>);
    c.metadata = world.faults.has('cust-metadata-merged') ? { ...c.metadata, ...m } : m;
  }
  c.updated_at = world.iso();
  noteCustomerPatched(world, c);
  if (!world.faults.has('cust-updated-event-missing')) emitView(caller, 'customer.updated', view(world, c));
  return { status: 200, body: view(world, c) };
}
