// How the Gate world writes what the specs leave it to spell: money strings, timestamps, ids and request ids. Each is
// an open point of the specs (src/model/openPoints/gate/conventions.ts, errors.ts); the world's choice is read here
// once, and the knobs the reference had before the inventory (reference.idStyle, requestIdStyle) still apply.
import { randomUUID } from 'node:crypto';
import type { Profile } from '../../profile/schema.js';
import { choiceOf } from '../kit/dialect.js';

/** A money string as the world writes it: the reference's own form, trailing zeros trimmed, or four places at least. */
export function moneyWriter(profile: Profile): (d: string) => string {
  const style = choiceOf(profile, 'gate.money.precision');
  if (style === 'trimmed')
    return (d) => {
      if (!/^-?\d+\.\d+$/.test(d)) return d;
      const t = d.replace(/0+$/, '').replace(/\.$/, '');
      return t === '-0' ? '0' : t;
    };
  if (style === 'four-places')
    return (d) => {
      if (!/^-?\d+(\.\d+)?$/.test(d)) return d;
      const [i, f = ''] = d.split('.');
      return `${i}.${f.padEnd(4, '0')}`;
    };
  return (d) => d;
}

/** Whether the world's timestamps are whole seconds (its records then keep whole-second moments). */
export function wholeSeconds(profile: Profile): boolean {
  return choiceOf(profile, 'gate.timestamps.precision') !== 'millis-z';
}

/** A timestamp as the world writes it: …:15.000Z, …:15+00:00 or …:15Z. */
export function stampWriter(profile: Profile): (ms: number) => string {
  const style = choiceOf(profile, 'gate.timestamps.precision');
  if (style === 'millis-z') return (ms) => new Date(ms).toISOString();
  const zone = style === 'seconds-offset' ? '+00:00' : 'Z';
  return (ms) => `${new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19)}${zone}`;
}

/** The Gate ids' style: the world's choice, or the idStyle knob (shared with pools) where that asks for UUIDs. */
export function gateIdStyle(profile: Profile): 'prefixed' | 'uuid' {
  return choiceOf(profile, 'gate.ids.style') === 'uuid' || profile.reference?.idStyle === 'uuid' ? 'uuid' : 'prefixed';
}

/** The Gate request ids' style: the world's choice, or the requestIdStyle knob (shared with pools). */
export function gateRequestIdStyle(profile: Profile): 'uuid' | 'base62' {
  return choiceOf(profile, 'gate.errors.requestId') === 'base62' || profile.reference?.requestIdStyle === 'base62' ? 'base62' : 'uuid';
}

/** A new id: `<prefix>_<24 letters and digits>`, or a bare UUID. */
export function idMaker(profile: Profile, randomAlnum: (n: number) => string): (prefix: string) => string {
  const uuid = gateIdStyle(profile) === 'uuid';
  return (prefix) => (uuid ? randomUUID() : `${prefix}_${randomAlnum(24)}`);
}
