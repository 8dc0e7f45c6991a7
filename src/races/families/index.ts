// Every race family, in the order the report lists them (one small file each, behind src/races/family.ts).
import type { RaceFamily } from '../family.js';
import type { WindowFamily } from '../window.js';
import customerDeleteBesidePatch from './customerDeleteBesidePatch.js';
import { customersOneEmail, customersOneExternalId } from './customersOneIdentity.js';
import customersSameKey from './customersSameKey.js';
import { payInsOneQuote, payInsSameKey, payOutsOneQuote, payOutsSameKey } from './railRedemptions.js';
import railVolumeCap from './railVolumeCap.js';
import { defaultWindow, routeWindow } from './rateWindows.js';
import sessionCancelBesideCompletion from './sessionCancelBesideCompletion.js';
import sessionsSameKey from './sessionsSameKey.js';
import pollsOfReturned from './pollsOfReturned.js';
import transactBesideReject from './transactBesideReject.js';
import { transactOneQuote, transactSameKey } from './transactOneQuote.js';
import transactsOverBalance from './transactsOverBalance.js';
import velocityCap from './velocityCap.js';

/** A family judged against the oracle (family.ts), or a burst past a rate window judged by the window's numbers (window.ts). */
export type AnyRaceFamily = RaceFamily | WindowFamily;

export const isWindow = (f: AnyRaceFamily): f is WindowFamily => 'judge' in f && f.judge === 'window';

export const RACE_FAMILIES: readonly AnyRaceFamily[] = [
  sessionsSameKey,
  sessionCancelBesideCompletion,
  customersSameKey,
  customersOneEmail,
  customersOneExternalId,
  customerDeleteBesidePatch,
  payOutsOneQuote,
  payOutsSameKey,
  payInsOneQuote,
  payInsSameKey,
  railVolumeCap,
  defaultWindow,
  routeWindow,
  transactOneQuote,
  transactSameKey,
  transactBesideReject,
  transactsOverBalance,
  pollsOfReturned,
  velocityCap,
];

export function raceFamily(id: string): AnyRaceFamily | undefined {
  return RACE_FAMILIES.find((f) => f.id === id);
}
