// The gate spec's passages that no requirement tests, each with its reviewed reason.
// (Anchors of tested passages live with their requirements in src/model/catalogue/gate/.)
import type { PassageCases } from './index.js';

/** Open points the spec leaves open without saying "not shown". */
export const NOT_SHOWN: { quote: string; reason: string }[] = [
  {
    quote: 'No session status value is shown for either.',
    reason:
      'the session status while a linked buy or sell is processing or has failed is left open: observed (the events themselves are GATE-EVT-SESSION-PROCESSING / -FAILED)',
  },
  {
    quote: 'The service publishes 20 event contracts; the 14 above are the ones listed.',
    reason: 'six contracts are neither named nor shaped: only the envelope rules apply to an unknown type, and none is caused on purpose',
  },
];

/** Passages no request to the target can test, and why. */
export const NOT_TESTABLE: { quote: string; reason: string }[] = [
  {
    quote: 'Covers: the hosted ramp service, meaning sessions, capabilities, quotes, transactions, embed bootstrap',
    reason: "the document's scope statement: it names the areas below and states no behaviour of its own",
  },
  {
    quote: 'The second document covers the separate pools liquidity service, which has its own base address.',
    reason: 'points to the other spec (pools), whose rules are mapped there',
  },
  { quote: 'Open points are flagged inline.', reason: 'an editorial note on how the spec marks open points ("not shown"), which the map marks by itself' },
  {
    quote: 'Further areas: capability discovery (countries, currencies, assets, payment methods, payout methods, eligibility), indicative quote previews',
    reason: "an index of the service's areas; each area's rules are anchored where its section states them",
  },
  {
    quote: 'It is not a verified user identity.',
    reason:
      'says what a customer record is not: no documented field or request links a customer to identity verification, so nothing observable could contradict it (kyc_status being server-managed is GATE-CUST-KYC-STATUS-NOT-SETTABLE)',
  },
  {
    quote: 'Each ends in the version segment `/v1`.',
    reason:
      "the profile schema refuses a base URL that does not end in /v1 and every check requests below it, so a dedicated requirement could only restate the profile's validity",
  },
  {
    quote: 'All paths below are relative to the base address.',
    reason: "a reading convention of the document: every check sends its paths below the profile's base address, so there is no separate behaviour to judge",
  },
  { quote: 'All paths are relative to the base address.', reason: 'the same reading convention, repeated for the endpoint tables' },
  {
    quote: 'Browser callbacks and redirect URLs are UX signals only.',
    reason:
      "guidance for the partner's integration: how the partner's browser code treats redirects happens in the partner's frontend, outside any request to the service",
  },
  {
    quote: 'Final state comes from verified webhooks and server-side reads.',
    reason: 'guidance for the partner: trust webhooks and reads, not redirects; the webhook and read rules themselves are anchored in their sections',
  },
  {
    quote: 'All-null means default branding.',
    reason:
      'what the widget renders for unset tokens; the API only returns the tokens (null when unset: GATE-BRAND-GET-SHAPE), and no response says which branding the widget shows',
  },
  {
    quote: 'The user is derived from the session.',
    reason:
      'which user record a pay-out draws on is not exposed by any documented field; what is testable — the session is named and no identity comes in the body — is GATE-RAIL-PAYOUT-REQUIRED-400 and GATE-RAIL-PAYOUT-IDENTITY-FIELD-400',
  },
  { quote: 'Pay-out rules:', reason: 'a lead-in to the numbered rules below, which are anchored one by one' },
  {
    quote: 'A method appearing in a schema does not prove the partner, country, currency or environment can execute it.',
    reason: 'a caution to the partner against reading capability out of a schema: it states no behaviour of the service',
  },
  { quote: 'Rules:', reason: 'a lead-in to the numbered authentication rules below, which are anchored one by one' },
  {
    quote: 'A secret key must not be placed in browser code, query strings or logs.',
    reason:
      "the partner's obligation: where the partner keeps its key is outside any request to the service (rampart itself never prints one: its redaction tests)",
  },
  {
    quote: '| Account assertion | short-lived RS256 token | browser memory only |',
    reason: 'the header or transport of an account assertion is not shown (rule 6), so no request can present one',
  },
  {
    quote:
      'An account assertion is accepted only when it targets `gate:dashboard`, holds the gate entitlement and `account:read`, and maps to the same organization and partner.',
    reason:
      'the header or transport of an account assertion is not shown (rule 6), so no request can present one; how secret keys reach the dashboard is GATE-DASH-SK-ACCESS',
  },
  {
    quote: 'Management actions also need `account:manage` and an OWNER or ADMIN role.',
    reason: 'about account assertions, whose transport is not shown (rule 6): no request can carry the scopes or roles',
  },
  {
    quote: 'Key rotation: create the new key, deploy it, confirm traffic, then revoke the old one.',
    reason: "the partner's procedure: no endpoint creating or revoking keys is documented, and a revoked key's 403 is GATE-AUTH-REVOKED-403",
  },
  {
    quote: 'Reject invalid signatures with 400.',
    reason: "binds the partner's receiver, not the service: rampart's own receiver is held to it by test/receiver.test.ts",
  },
  {
    quote: 'Do not retry 400, 401, 403 unchanged.',
    reason: "the partner's client obligation: whether a client retries is outside the service (rampart's client follows it: test/client.test.ts)",
  },
  { quote: 'On 409 read current state.', reason: "the partner's client obligation after a conflict: no behaviour of the service" },
  { quote: 'Field and behavior limits:', reason: 'a lead-in to the limits below, which are anchored one by one' },
  {
    quote: "The contract version is a date, currently `2026-05-25`, carried in the specification's version field.",
    reason: 'the date lives in the specification document, not in any response or header of the service',
  },
  {
    quote: 'The URL carries the major segment `/v1`.',
    reason:
      'the profile schema refuses a base URL that does not end in /v1 and every check requests below it: a target not answering under /v1 fails every check at once',
  },
];

/** Anchored passages naming several cases: each case and the requirements asserting it (partial while one is unasserted). */
export const CASES: PassageCases[] = [];
