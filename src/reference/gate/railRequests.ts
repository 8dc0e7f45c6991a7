// What a rail request (POST /rails/pay_outs, /rails/pay_ins) may carry: its Idempotency-Key, and a body that names
// the session and the quote and never money, method, identity or payout-instruction fields (those come from the
// locked quote and the verified user record).
import type { ActiveFaults } from '../kit/faults.js';
import { HttpError, type Req } from '../kit/http.js';
import type { GateWorld } from './world.js';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ALLOWED = new Set(['gate_session_id', 'quote_id', 'reference', 'metadata']);

/** Money and method fields: amount, currency and method come from the locked quote only. */
const MONEY_FIELDS = new Set([
  'amount',
  'currency',
  'fee',
  'fees',
  'fiat_amount',
  'crypto_amount',
  'fiat_pay_or_receive',
  'fiat_currency',
  'crypto_currency',
  'total',
  'price',
  'rate',
  'value',
  'method',
  'payment_method',
  'payout_method',
]);
/** Identity and payout-instruction fields: they come from the verified user record only. */
const IDENTITY_FIELDS = new Set([
  'iban',
  'bic',
  'swift',
  'account_number',
  'routing_number',
  'sort_code',
  'bank_account',
  'account_holder',
  'name',
  'first_name',
  'last_name',
  'full_name',
  'email',
  'phone',
  'address',
  'wallet',
  'wallet_address',
  'beneficiary',
  'date_of_birth',
  'dob',
  'user',
  'customer',
  'destination',
]);

/** Pay-outs document the key as a UUID; pay-ins only name the header, so any non-empty key passes there. */
export function idempotencyKey(req: Req, mustBeUuid: boolean, faults: ActiveFaults): string {
  const h = req.headers['idempotency-key'];
  const key = Array.isArray(h) ? h[0] : h;
  if (!key) throw new HttpError(400, 'Idempotency-Key header is required', 'idempotency_key_required');
  if (mustBeUuid && !UUID_RE.test(key) && !faults.has('rail-payout-idempotency-key-not-uuid-accepted'))
    throw new HttpError(400, 'Idempotency-Key must be a UUID', 'idempotency_key_invalid');
  return key;
}

/** The length a rail's gate_session_id and quote_id may reach ("max 64"; the seeded faults move it). */
export function railIdMax(world: GateWorld, kind: 'pay_in' | 'pay_out'): number {
  if (kind !== 'pay_out') return 64;
  return world.faults.has('rail-payout-id-unbounded') ? Infinity : world.faults.has('rail-payout-id-max-63') ? 63 : 64;
}

export function validateBody(world: GateWorld, body: Record<string, unknown>, kind: 'pay_in' | 'pay_out'): void {
  const errs: string[] = [];
  for (const k of Object.keys(body)) {
    if (ALLOWED.has(k)) continue;
    const lower = k.toLowerCase();
    if (MONEY_FIELDS.has(lower)) {
      if (kind === 'pay_out' && world.faults.has('rail-payout-money-field-accepted')) continue;
      errs.push(`${k} comes from the locked quote and is not accepted`);
    } else if (IDENTITY_FIELDS.has(lower)) {
      if (kind === 'pay_out' && world.faults.has('rail-payout-identity-field-accepted')) continue;
      errs.push(`${k} comes from the verified user record and is not accepted`);
    }
    // Any other key: what the service does with it is not shown; it is ignored.
  }
  for (const k of ['gate_session_id', 'quote_id'] as const) {
    const v = body[k];
    if (k === 'gate_session_id' && v === undefined && kind === 'pay_out' && world.faults.has('rail-payout-session-id-optional')) continue;
    if (typeof v !== 'string') errs.push(`${k} is required`);
    // Fault rail-payout-id-max-63: the limit is one short, so a 64-char id (within "max 64") is refused too.
    const max = railIdMax(world, kind);
    if (typeof v === 'string' && v.length > max) errs.push(`${k} must be at most ${max} characters`);
  }
  if ('reference' in body && body.reference !== null) {
    const v = body.reference;
    const max = kind === 'pay_out' && world.faults.has('rail-payout-reference-unbounded') ? Infinity : 128;
    if (typeof v !== 'string') errs.push('reference must be a string');
    else if (v.length > max) errs.push('reference must be at most 128 characters');
  }
  const stringAccepted = kind === 'pay_out' && typeof body.metadata === 'string' && world.faults.has('rail-payout-metadata-string-accepted');
  if ('metadata' in body && !stringAccepted && (!body.metadata || typeof body.metadata !== 'object' || Array.isArray(body.metadata))) {
    errs.push('metadata must be an object');
  }
  if (errs.length) throw new HttpError(400, errs.join('; '), 'parameter_invalid');
}
