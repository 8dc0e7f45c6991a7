// Gate race faults (issue 44): each a check-then-act gap that opens only with the fault on — the state is checked,
// then an await of a few milliseconds (the round trip to a store a real service makes), then the act on what the
// check saw. A request sent alone, or after the one before it was answered, always meets a closed gap (the answer
// comes after the act), so no fixed check and no explored sequence sees it; requests that arrive together do.
// Only `rampart races` finds them (suite 'races'). The handlers call the helpers below in a line or two each.
import type { ActiveFaults, FaultDef } from '../kit/faults.js';

/** How long a race gap stays open: wide enough for a burst sent at once to land inside it on a loaded machine. */
export const RACE_GAP_MS = 40;

export const RACE = {
  sessionIdempotency: 'race-sess-idempotency-gap',
  sessionCompletion: 'race-sess-completion-gap',
  customerCreate: 'race-cust-create-gap',
  customerEmail: 'race-cust-email-unique-gap',
  customerExternalId: 'race-cust-external-id-unique-gap',
  customerPatch: 'race-cust-patch-resurrects-deleted',
  payOutRedeem: 'race-rail-payout-redeem-gap',
  payOutIdempotency: 'race-rail-payout-idempotency-gap',
  payInRedeem: 'race-rail-payin-redeem-gap',
  volumeCap: 'race-rail-volume-cap-gap',
  firstWindow: 'race-rate-first-window-gap',
  routeWindow: 'race-rate-route-window-gap',
} as const;

const gate = (name: string, requirements: string[], description: string): FaultDef => ({ name, service: 'gate', requirements, description, suite: 'races' });

export const RACE_GATE_FAULTS: FaultDef[] = [
  gate(
    RACE.sessionIdempotency,
    ['GATE-SESS-IDEMPOTENT-REPLAY'],
    'Race: POST /gate_sessions looks its Idempotency-Key up, then records it a round trip later — repeats of one key and body arriving together each find no record and each make a session (three ids for one key); one after another they replay.',
  ),
  gate(
    RACE.sessionCompletion,
    ['GATE-SESS-TERMINAL-STAYS'],
    'Race: the completion of a linked buy checks that the session is open, then completes it a round trip later — a cancel landing in between is answered 200 (cancelled) and the session then reads completed: both succeed, the terminal cancel is left.',
  ),
  gate(
    RACE.customerCreate,
    ['GATE-CUST-IDEMPOTENT-REPLAY'],
    'Race: POST /customers looks its Idempotency-Key up and checks the email and external_id, then writes the customer and the key a round trip later — repeats of one key and body arriving together each make a customer.',
  ),
  gate(
    RACE.customerEmail,
    ['GATE-CUST-DUP-EMAIL-409'],
    'Race: POST /customers checks the email is free, then writes the customer a round trip later (external_id stays checked with the write) — two creates of one email arriving together are both 201.',
  ),
  gate(
    RACE.customerExternalId,
    ['GATE-CUST-DUP-EXTERNAL-ID-409'],
    'Race: POST /customers checks the external_id is free, then writes the customer a round trip later (the email stays checked with the write) — two creates of one external_id arriving together are both 201.',
  ),
  gate(
    RACE.customerPatch,
    ['GATE-CUST-DELETED-404'],
    'Race: PATCH /customers/{id} reads the record, then writes the whole record back a round trip later — a DELETE landing in between is answered with its marker, and the PATCH writes the customer back undeleted: it reads 200 again.',
  ),
  gate(
    RACE.payOutRedeem,
    ['GATE-QUOTE-CONSUMED-409'],
    'Race: POST /rails/pay_outs checks the signed quote is active, then consumes it a round trip later — two pay-outs of one quote under different keys arriving together are both 201.',
  ),
  gate(
    RACE.payOutIdempotency,
    ['GATE-RAIL-PAYOUT-IDEMPOTENT-REPLAY'],
    'Race: POST /rails/pay_outs looks its Idempotency-Key up and checks the quote, then records both a round trip later — repeats of one key and body arriving together each make a pay-out of the one quote.',
  ),
  gate(
    RACE.payInRedeem,
    ['GATE-QUOTE-CONSUMED-409', 'GATE-RAIL-PAYIN-REDEEMS'],
    'Race: POST /rails/pay_ins checks the signed quote is active, then consumes it a round trip later — two pay-ins (or a pay-in beside a pay-out) of one quote arriving together both succeed.',
  ),
  gate(
    RACE.volumeCap,
    ['GATE-RAIL-ACCOUNT-BLOCKED'],
    "Race: a rail reads its user's cumulative volume, then writes the total with its own amount a round trip later — two rails arriving together each add to the total they read (one is lost): neither pushes the user past the cap, no account_blocked.",
  ),
  gate(
    RACE.firstWindow,
    ['GATE-RATE-FIRST-WINDOW'],
    "Race: the 10-per-10-seconds window counts a default route's request, then records it a round trip later — a burst arriving together all finds the window as it was: more than 10 through.",
  ),
  gate(
    RACE.routeWindow,
    ['GATE-RATE-ROUTE-WRITE10'],
    "Race: a route row's own first window (10 per minute on POST /webhooks/test, POST /gate_sessions) counts a request, then records it a round trip later — a burst arriving together: more than 10 through.",
  ),
];

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The gap itself (a handler that already knows its fault is on). */
export const sleepRaceGap = (): Promise<void> => sleep(RACE_GAP_MS);

/** The gap, when `name` is on: an await between the check a handler made and the act it takes on it. */
export function raceGap(faults: ActiveFaults, name: string): Promise<void> | undefined {
  return faults.has(name) ? sleep(RACE_GAP_MS) : undefined;
}

/** The Idempotency-Key scopes whose lookup and record a race fault splits. */
const IDEMPOTENCY_GAPS: Record<string, string[]> = {
  gate_sessions: [RACE.sessionIdempotency],
  customers: [RACE.customerCreate],
  'rails.pay_outs': [RACE.payOutIdempotency],
};

/** The gap between an Idempotency-Key's lookup (it found none) and its record, when a fault of its scope is on. */
export function idempotencyRaceGap(faults: ActiveFaults, scope: string): Promise<void> | undefined {
  return IDEMPOTENCY_GAPS[scope]?.some((n) => faults.has(n)) ? sleep(RACE_GAP_MS) : undefined;
}

/** The identity a customer create checks before its gap (the rest is checked with the write), or undefined: no gap. */
export function customerCheckedBeforeGap(faults: ActiveFaults): readonly ('email' | 'external_id' | 'phone')[] | undefined {
  if (faults.has(RACE.customerCreate)) return ['email', 'external_id', 'phone'];
  if (faults.has(RACE.customerEmail)) return ['email'];
  if (faults.has(RACE.customerExternalId)) return ['external_id'];
  return undefined;
}

/** A rail's redemption after the gap, when its fault is on and the quote was active: true = consume without checking again. */
export async function railRedeemRaceGap(faults: ActiveFaults, kind: 'pay_in' | 'pay_out', state: string): Promise<boolean> {
  const names = kind === 'pay_out' ? [RACE.payOutRedeem, RACE.payOutIdempotency] : [RACE.payInRedeem];
  if (state !== 'active' || !names.some((n) => faults.has(n))) return false;
  await sleep(RACE_GAP_MS);
  return true;
}

/** The window a rate-limit race fault splits for a route group, when its fault is on: the stamp recorded after it. */
export function rateWindowRaceGap(faults: ActiveFaults, group: string): Promise<void> | undefined {
  return faults.has(group === 'default' ? RACE.firstWindow : RACE.routeWindow) ? sleep(RACE_GAP_MS) : undefined;
}
