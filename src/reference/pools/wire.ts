// How the pools world writes what the spec leaves open on the wire: a pool's pair, money and rate strings,
// timestamps and ids, each the world's choice at its open point (src/model/openPoints/pools/conventions.ts,
// discovery.ts). Records keep canonical values; only what is sent is spelled here.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Profile } from '../../profile/schema.js';
import { choiceOf } from '../kit/dialect.js';

/** A pool's pair as this world writes it: EUR-USDT, EUR/USDT or EURUSDT (the id stays `<fiat>-<crypto>`). */
export function pairOf(profile: Profile, pool: { id: string; fiatCurrency: string; cryptoCurrency: string }): string {
  const spelling = choiceOf(profile, 'pools.pool.pair');
  if (spelling === 'EUR/USDT') return `${pool.fiatCurrency}/${pool.cryptoCurrency}`;
  if (spelling === 'EURUSDT') return `${pool.fiatCurrency}${pool.cryptoCurrency}`;
  return pool.id;
}

/** A money or rate string as this world writes it: with its own places ("1.0850", "10.00"), or trimmed ("1.085", "10"). */
export function moneyOf(profile: Profile, s: string): string {
  if (choiceOf(profile, 'pools.money.precision') !== 'trimmed' || !s.includes('.')) return s;
  return s.replace(/0+$/, '').replace(/\.$/, '');
}

/** Whether this world stamps whole seconds (its records then keep whole-second instants, so a stamp is exact). */
export function wholeSecondStamps(profile: Profile): boolean {
  return choiceOf(profile, 'pools.timestamps.precision') !== 'millis-z';
}

/** An instant as this world stamps it: …:15.000Z, …:15Z or …:15+00:00. */
export function isoOf(profile: Profile, ms: number): string {
  const iso = new Date(ms).toISOString();
  const precision = choiceOf(profile, 'pools.timestamps.precision');
  if (precision === 'seconds-z') return iso.replace(/\.\d{3}Z$/, 'Z');
  if (precision === 'seconds-offset') return iso.replace(/\.\d{3}Z$/, '+00:00');
  return iso;
}

/** The instant a record keeps: now, or now cut to its second where the world stamps whole seconds. */
export function stampOf(profile: Profile, ms: number): number {
  return wholeSecondStamps(profile) ? Math.floor(ms / 1000) * 1000 : ms;
}

/** A fresh id: prefixed (pq_…, ptx_…) or a bare UUID (this world's choice, or the shared reference.idStyle knob). */
export function idOf(profile: Profile, prefix: string): string {
  const uuid = choiceOf(profile, 'pools.ids.style') === 'uuid' || profile.reference?.idStyle === 'uuid';
  return uuid ? randomUUID() : `${prefix}_${randomBytes(12).toString('hex')}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `s` is shaped like an id this world issues with `prefix` (idOf): what a strict target calls well-formed. */
export function idShaped(s: string, prefix: string): boolean {
  return UUID.test(s) || new RegExp(`^${prefix}_[0-9a-f]{24}$`).test(s);
}

/** The path the pools base addresses end in (pools.baseAddresses): /v1 at the host's root, or /pools/v1. */
export function poolsBasePath(profile: Profile): string {
  return choiceOf(profile, 'pools.baseAddresses') === 'path-prefix' ? '/pools/v1' : '/v1';
}
