// Steps the Gate race families share before and after their bursts: the session body a partner sends, a session
// made, a signed quote locked on it (the profile's createSignedQuote template: POST /quotes is not shown), reads.
import type { Exchange } from '../../client/types.js';
import { fillDeep } from '../../needs/support/triggers.js';
import { CheckUnverified } from '../../runner/expect.js';
import { ref, type ResourceRelations } from '../../model/relations.js';
import type { Profile } from '../../profile/schema.js';
import { expectOk, fieldOf } from '../expectStep.js';
import type { RoundContext } from '../family.js';
import type { RaceSide } from '../side.js';

/** The body of a session the races make: the profile's session defaults, the round's tag as user_reference. */
export function sessionBody(profile: Profile, round: RoundContext, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    amount: '10.00',
    currency: 'EUR',
    return_url: 'https://example.test/return',
    ...(profile.gate.sessionDefaults ?? {}),
    user_reference: `races-${round.tag}`,
    ...extra,
  };
}

/** A session made before the burst (its own Idempotency-Key): its id. */
export async function makeSession(side: RaceSide, round: RoundContext, extra: Record<string, unknown> = {}): Promise<string> {
  const ex = await side.send('create the session', 'gate', {
    method: 'POST',
    path: '/gate_sessions',
    body: sessionBody(side.profile, round, extra),
    idempotencyKey: round.keys.at(-1)!,
  });
  expectOk(side, ex, 'GATE-SESS-CREATE-SHAPE', 'POST /gate_sessions');
  return fieldOf(side, ex, 'id', 'GATE-SESS-CREATE-SHAPE', 'POST /gate_sessions');
}

/** A signed quote locked on the session by the side's own template: its id. */
export async function lockQuote(side: RaceSide, sessionId: string, quoteSide: 'on_ramp' | 'off_ramp'): Promise<string> {
  const res = await side.trigger('gate', 'createSignedQuote', { sessionId, side: quoteSide });
  if (!res) throw new Error(`the ${side.name} declares no gate.triggers.createSignedQuote`);
  expectOk(side, res.exchange, 'GATE-QUOTE-LOCK', 'lock a signed quote (createSignedQuote)');
  const id = res.values.id;
  if (typeof id === 'string' && id) return id;
  return fieldOf(side, res.exchange, 'id', 'GATE-QUOTE-LOCK', 'lock a signed quote (createSignedQuote)');
}

/** GET one object after the burst. */
export function read(side: RaceSide, label: string, path: string): Promise<Exchange> {
  return side.send(label, 'gate', { method: 'GET', path });
}

export const sessionPath = (id: string, rest = '') => `/gate_sessions/${encodeURIComponent(id)}${rest}`;

/**
 * What a customer creation's answer determines: the customer it names (its id, where it shows one). The body,
 * response and status of POST /customers are not shown: only the outcome and the object are compared.
 */
export const CUSTOMER_CREATED_RELATIONS: ResourceRelations = { requirement: 'GATE-CUST-CREATE', fields: { id: ref('GATE-CUST-CREATE') } };

/** A phone no other round sends (a target may refuse a repeated one: gate.customer.phoneRepeat). */
function phoneOf(round: RoundContext, n: number): string {
  let h = 0;
  for (const c of `${round.tag}#${n}`) h = (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0;
  return `+4915${String(h % 1_000_000_000).padStart(9, '0')}`;
}

/**
 * A customer creation body of the round, over the profile's gate.customerTemplate: its email, external_id and phone
 * unique to the round and to `n` (the `same` fields shared between the bodies of one burst instead).
 */
export function customerBody(profile: Profile, round: RoundContext, n: number, same: { email?: boolean; externalId?: boolean } = {}): Record<string, unknown> {
  const own = {
    external_id: `races-${round.tag}${same.externalId ? '' : `-${n}`}`,
    email: `races+${round.tag}${same.email ? '' : `-${n}`}@example.test`,
    phone: phoneOf(round, n),
  };
  const tpl = profile.gate.customerTemplate as Record<string, unknown> | undefined;
  const extra = tpl
    ? (fillDeep(tpl, { tag: `${round.tag}-${n}`, email: own.email, externalId: own.external_id, phone: own.phone }) as Record<string, unknown>)
    : {};
  return { first_name: 'Ada', last_name: 'Lovelace', country_code: 'DE', metadata: { rampart: 'races', tag: round.tag }, ...extra, ...own };
}

/**
 * How many customers of the first pages of the list hold `field` = `value` (newest first: the round's are on the first
 * page of any lived-in sandbox; three pages read at most). The list's page size is not shown.
 */
export async function countCustomers(side: RaceSide, field: 'email' | 'external_id', value: string): Promise<{ exchange: Exchange; count: number }> {
  let after: string | undefined;
  let count = 0;
  let first: Exchange | undefined;
  for (let page = 0; page < 3; page++) {
    const ex = await side.send(`list customers (page ${page + 1})`, 'gate', {
      method: 'GET',
      path: '/customers',
      ...(after ? { query: { starting_after: after } } : {}),
    });
    first ??= ex;
    expectOk(side, ex, 'GATE-CUST-LIST', 'GET /customers');
    const body = ex.json as { data?: Record<string, unknown>[]; has_more?: unknown } | undefined;
    const data = Array.isArray(body?.data) ? body.data : [];
    count += data.filter((c) => c[field] === value).length;
    if (body?.has_more !== true || !data.length) break;
    after = String(data.at(-1)!.id);
  }
  return { exchange: first!, count };
}

/**
 * The id of a customer the side just created: its creation answer's (the answer is not shown), else the first pages
 * of its list by the email. None found on the target leaves the race unreached (unverified, with the reason).
 */
export async function customerIdOf(side: RaceSide, created: Exchange, email: string): Promise<string> {
  const id = (created.json as Record<string, unknown> | undefined)?.id;
  if (typeof id === 'string' && id) return id;
  let after: string | undefined;
  for (let page = 0; page < 3; page++) {
    const ex = await side.send(`find the customer by its email (page ${page + 1})`, 'gate', {
      method: 'GET',
      path: '/customers',
      ...(after ? { query: { starting_after: after } } : {}),
    });
    const body = ex.json as { data?: Record<string, unknown>[]; has_more?: unknown } | undefined;
    const data = Array.isArray(body?.data) ? body.data : [];
    const hit = data.find((c) => c.email === email);
    if (typeof hit?.id === 'string') return hit.id;
    if (body?.has_more !== true || !data.length) break;
    after = String(data.at(-1)!.id);
  }
  if (side.name === 'oracle') throw new Error('the races oracle created a customer it does not list');
  throw new CheckUnverified(
    'the customer creation answer offers no id (its response is not shown) and the first pages of the list do not show the customer by its email: no customer to race on',
  );
}
