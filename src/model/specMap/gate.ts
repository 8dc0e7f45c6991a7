// The gate spec's passages that no requirement tests, each with its reviewed reason.
// (Anchors of tested passages live with their requirements in src/model/catalogue/gate/.)
import type { PassageCases } from './cases.js';

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
export const NOT_TESTABLE: { quote: string; reason: string; unreachable?: true }[] = [
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
    quote: 'The user is derived from the session.',
    reason:
      'which user record a pay-out draws on is not exposed by any documented field; what is testable — the session is named and no identity comes in the body — is GATE-RAIL-PAYOUT-REQUIRED-400 and GATE-RAIL-PAYOUT-IDENTITY-FIELD-400',

    unreachable: true,
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

    unreachable: true,
  },
  {
    quote:
      'An account assertion is accepted only when it targets `gate:dashboard`, holds the gate entitlement and `account:read`, and maps to the same organization and partner.',
    reason:
      'the header or transport of an account assertion is not shown (rule 6), so no request can present one; how secret keys reach the dashboard is GATE-DASH-SK-ACCESS',

    unreachable: true,
  },
  {
    quote: 'Management actions also need `account:manage` and an OWNER or ADMIN role.',
    reason: 'about account assertions, whose transport is not shown (rule 6): no request can carry the scopes or roles',

    unreachable: true,
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
export const CASES: PassageCases[] = [
  {
    quote: 'Single-object responses carry an `object` discriminator string.',
    cases: {
      GateSession: ['GATE-SESS-CREATE-SHAPE'],
      Customer: ['GATE-CUST-CREATE'],
      'deleted customer marker': ['GATE-CUST-DELETE-MARKER'],
      Branding: ['GATE-BRAND-GET-SHAPE'],
      Eligibility: ['GATE-ELIG-SHAPE'],
      Asset: ['GATE-CAP-ASSET-SINGLE'],
      WebhookDelivery: ['GATE-WHOPS-DELIVERY-SHAPE'],
      rail_pay_out: ['GATE-RAIL-PAYOUT-201'],
      'pay-in creation': ['GATE-CONV-OBJECT-DISCRIMINATOR'],
      'pay-in read': ['GATE-RAIL-PAYIN-READ'],
      transaction: ['GATE-TXN-READ'],
      'signed quote (POST /quotes, GET /quotes/{id})': ['GATE-CONV-OBJECT-DISCRIMINATOR'],
      'quote preview': ['GATE-CONV-OBJECT-DISCRIMINATOR'],
      'embed bootstrap and refresh': ['GATE-CONV-OBJECT-DISCRIMINATOR'],
      'dashboard usage, volume, webhook settings, secret rotation': ['GATE-CONV-OBJECT-DISCRIMINATOR'],
    },
  },
  {
    quote: 'List envelope: `object` = `list`, `data` (array), `has_more` (boolean), `url` (string, path of the list).',
    cases: {
      'GET /gate_sessions': ['GATE-SESS-LIST-ENVELOPE'],
      'GET /customers': ['GATE-CUST-LIST'],
      'GET /transactions': ['GATE-TXN-LIST'],
      'GET /webhooks/deliveries': ['GATE-WHOPS-LIST-ENVELOPE'],
      'countries and currencies': ['GATE-CAP-LISTS-ENVELOPE'],
      'GET /capabilities/assets': ['GATE-CAP-ASSETS-LIST'],
      'GET /capabilities/payment-methods': ['GATE-CAP-PM-LIST'],
    },
  },
  {
    quote: '| Secret key | `sk_<test|live>_<32 chars>`, `Authorization: Bearer <API_KEY>` | server only |',
    cases: {
      'the sk_<test|live>_<32 chars> bearer form': ['GATE-AUTH-MALFORMED-401'],
      sessions: ['GATE-AUTH-MISSING-401', 'GATE-AUTH-PK-SECRET-ROUTE'],
      capabilities: ['GATE-AUTH-MISSING-401', 'GATE-AUTH-PK-SECRET-ROUTE'],
      quotes: ['GATE-AUTH-MISSING-401', 'GATE-AUTH-PK-SECRET-ROUTE'],
      rails: ['GATE-AUTH-MISSING-401', 'GATE-AUTH-PK-SECRET-ROUTE'],
      transactions: ['GATE-AUTH-MISSING-401', 'GATE-AUTH-PK-SECRET-ROUTE'],
      customers: ['GATE-AUTH-MISSING-401', 'GATE-AUTH-PK-SECRET-ROUTE'],
      branding: ['GATE-AUTH-MISSING-401', 'GATE-AUTH-PK-SECRET-ROUTE'],
      'webhook tools': ['GATE-AUTH-MISSING-401', 'GATE-AUTH-PK-SECRET-ROUTE'],
      dashboard: ['GATE-AUTH-MISSING-401', 'GATE-AUTH-PK-SECRET-ROUTE', 'GATE-DASH-SK-ACCESS'],
    },
  },
  {
    quote: 'Missing or malformed credentials give 401.',
    cases: {
      'missing, on every secret-key group': ['GATE-AUTH-MISSING-401'],
      'missing, on the embed bootstrap': ['GATE-EMBED-NO-KEY-401'],
      malformed: ['GATE-AUTH-MALFORMED-401'],
    },
  },
  {
    quote: 'Rail responses carry a `provider` field that is reconciliation data only.',
    cases: {
      'POST /rails/pay_outs': ['GATE-RAIL-PROVIDER-FIELD'],
      'GET /rails/pay_outs/{id}': ['GATE-RAIL-PROVIDER-FIELD'],
      'POST /rails/pay_ins': ['GATE-RAIL-PROVIDER-FIELD'],
      'GET /rails/pay_ins/{id}': ['GATE-RAIL-PROVIDER-FIELD'],
    },
  },
  {
    quote: '`completed`, `expired`, `cancelled` are terminal.',
    cases: {
      cancelled: ['GATE-SESS-CANCEL-TERMINAL-409', 'GATE-SESS-TERMINAL-STAYS'],
      completed: ['GATE-SESS-CANCEL-TERMINAL-409', 'GATE-SESS-TERMINAL-STAYS'],
      expired: ['GATE-SESS-CANCEL-TERMINAL-409'],
    },
  },
  {
    quote: '| POST | /gate_sessions | SK + `Idempotency-Key` (UUID) |',
    cases: {
      'Idempotency-Key required': ['GATE-SESS-IDEMPOTENCY-KEY-REQUIRED'],
      'Idempotency-Key a UUID': ['GATE-SESS-IDEMPOTENCY-KEY-UUID'],
      'amount, currency, return_url required': ['GATE-SESS-CREATE-REQUIRED-FIELDS'],
      'amount a decimal string, metadata an object': ['GATE-SESS-CREATE-MALFORMED-400'],
      'response: GateSession plus client_secret': ['GATE-SESS-CREATE-SHAPE'],
    },
  },
  {
    quote: '| cancel_url | string or null | cancel redirect |',
    cases: { 'as sent': ['GATE-SESS-ECHO-TERMS'], 'null when not sent': ['GATE-SESS-UNSENT-TERMS-NULL'] },
  },
  {
    quote: '| flow | string or null | locked flow |',
    cases: { 'as sent': ['GATE-SESS-ECHO-TERMS'], 'null when not sent': ['GATE-SESS-UNSENT-TERMS-NULL'] },
  },
  {
    quote: '| target_token | string or null | token constraint |',
    cases: { 'as sent': ['GATE-SESS-ECHO-TERMS'], 'null when not sent': ['GATE-SESS-UNSENT-TERMS-NULL'] },
  },
  {
    quote: '| target_network | string or null | network constraint |',
    cases: { 'as sent': ['GATE-SESS-ECHO-TERMS'], 'null when not sent': ['GATE-SESS-UNSENT-TERMS-NULL'] },
  },
  {
    quote: '| wallet_address | string or null | pre-filled wallet |',
    cases: { 'as sent': ['GATE-SESS-ECHO-TERMS'], 'null when not sent': ['GATE-SESS-UNSENT-TERMS-NULL'] },
  },
  {
    quote: '| user_reference | string or null | opaque partner correlation id |',
    cases: { 'as sent': ['GATE-SESS-ECHO-TERMS'], 'null when not sent': ['GATE-SESS-UNSENT-TERMS-NULL'] },
  },
  {
    quote: '| /capabilities/assets/{symbol} | Path `symbol` (case-insensitive).',
    cases: {
      'symbol case-insensitive': ['GATE-CAP-ASSET-SYMBOL-CASE-INSENSITIVE'],
      'side on_ramp (default)': ['GATE-CAP-ASSET-SIDE-DEFAULT'],
      'side off_ramp': ['GATE-CAP-ASSET-SIDE-OFF-RAMP'],
      'a single Asset, not wrapped': ['GATE-CAP-ASSET-SINGLE'],
      'unknown symbol 404': ['GATE-CAP-ASSET-UNKNOWN-404'],
      'inactive symbol 404': ['GATE-CAP-ASSET-INACTIVE-404'],
      'not transactable on the side 404': ['GATE-CAP-ASSET-SIDE-404'],
      'not offered in the resolved region 404': ['GATE-CAP-ASSET-REGION-404'],
    },
  },
  {
    quote: '| POST | /rails/pay_outs | Headers: `Authorization` (SK), `Idempotency-Key` (UUID, required)',
    cases: {
      'Idempotency-Key required': ['GATE-RAIL-PAYOUT-IDEMPOTENCY-REQUIRED'],
      'Idempotency-Key a UUID': ['GATE-RAIL-PAYOUT-IDEMPOTENCY-KEY-UUID'],
      'gate_session_id and quote_id required': ['GATE-RAIL-PAYOUT-REQUIRED-400'],
      'gate_session_id and quote_id max 64': ['GATE-RAIL-PAYOUT-ID-MAX'],
      'reference max 128': ['GATE-RAIL-PAYOUT-REFERENCE-MAX'],
      'metadata an object': ['GATE-RAIL-PAYOUT-METADATA-OBJECT'],
      'response 201 rail_pay_out': ['GATE-RAIL-PAYOUT-201'],
    },
  },
  {
    quote: '| GET | /webhooks/deliveries | Query: `status`',
    cases: {
      'status filter': ['GATE-WHOPS-LIST-STATUS-FILTER'],
      'limit 1–200': ['GATE-WHOPS-LIST-LIMIT-MIN', 'GATE-WHOPS-LIST-LIMIT-MAX'],
      'limit default 50': ['GATE-WHOPS-LIST-DEFAULT-LIMIT'],
      'skip ≥ 0': ['GATE-WHOPS-LIST-SKIP'],
      'skip default 0': ['GATE-WHOPS-LIST-SKIP-DEFAULT'],
      'skip=N offsets the list': ['GATE-WHOPS-LIST-SKIP-OFFSET'],
      'most recent first': ['GATE-WHOPS-LIST-ORDER'],
      has_more: ['GATE-WHOPS-LIST-HAS-MORE'],
      'the raw payload is never returned': ['GATE-WHOPS-NO-PAYLOAD'],
    },
  },
  {
    quote: '| 10 per minute | POST /gate_sessions, POST /dashboard/webhook-secret/rotate, POST /webhooks/test |',
    cases: {
      'POST /gate_sessions': ['GATE-RATE-ROUTE-WRITE10', 'GATE-RATE-ROUTE-WRITE10-LENGTH'],
      'POST /dashboard/webhook-secret/rotate': ['GATE-RATE-ROUTES-WRITE10'],
      'POST /webhooks/test': ['GATE-RATE-ROUTES-WRITE10'],
    },
  },
  {
    quote: '| 30 per minute | POST /quotes/preview',
    cases: {
      'PATCH /branding': ['GATE-RATE-ROUTE-WRITE30', 'GATE-RATE-ROUTE-WRITE30-LENGTH'],
      'POST /quotes/preview': ['GATE-RATE-ROUTES-WRITE30'],
      'POST /quotes': ['GATE-RATE-ROUTES-WRITE30'],
      'POST /rails/pay_ins': ['GATE-RATE-ROUTES-WRITE30'],
      'POST /rails/pay_outs': ['GATE-RATE-ROUTES-WRITE30'],
      'POST /embed/bootstrap': ['GATE-RATE-ROUTES-WRITE30'],
      'POST /gate_sessions/{id}/cancel': ['GATE-RATE-ROUTES-WRITE30'],
      'customer writes': ['GATE-RATE-ROUTES-WRITE30'],
      'webhook replay': ['GATE-RATE-ROUTES-WRITE30'],
    },
  },
  {
    quote: '| 60 per minute | session reads',
    cases: {
      'GET /branding': ['GATE-RATE-ROUTE-READ60', 'GATE-RATE-ROUTE-READ60-LENGTH'],
      'session reads': ['GATE-RATE-ROUTES-READ60'],
      capabilities: ['GATE-RATE-ROUTES-READ60'],
      'transaction reads': ['GATE-RATE-ROUTES-READ60'],
      'quote and rail reads': ['GATE-RATE-ROUTES-READ60'],
      'customer reads': ['GATE-RATE-ROUTES-READ60'],
      'dashboard volume': ['GATE-RATE-ROUTES-READ60'],
      'dashboard usage': ['GATE-RATE-ROUTES-READ60'],
      'GET /webhooks/deliveries': ['GATE-RATE-ROUTES-READ60'],
    },
  },
  {
    quote: '| default windows | GET and PATCH /dashboard/webhook-settings, GET /dashboard/webhook-deliveries |',
    cases: {
      'GET /dashboard/webhook-settings': ['GATE-RATE-FIRST-WINDOW'],
      'PATCH /dashboard/webhook-settings': ['GATE-RATE-ROUTES-DEFAULT'],
      'GET /dashboard/webhook-deliveries': ['GATE-RATE-ROUTES-DEFAULT'],
    },
  },
  {
    quote: 'Rate limits apply per client in three concurrent windows: 10 requests per 10 seconds, 60 per minute, 300 per hour.',
    cases: {
      'per client': ['GATE-RATE-PER-CLIENT'],
      '10 per 10 seconds': ['GATE-RATE-FIRST-WINDOW', 'GATE-RATE-FIRST-WINDOW-LENGTH', 'GATE-RATE-FIRST-WINDOW-REOPENS'],
      '60 per minute': ['GATE-RATE-MINUTE-WINDOW', 'GATE-RATE-MINUTE-WINDOW-LENGTH'],
      '300 per hour': ['GATE-RATE-HOUR-WINDOW', 'GATE-RATE-HOUR-WINDOW-LENGTH'],
    },
  },
  {
    quote: '| 429 | rate_limited | rate limit exceeded |',
    cases: {
      'the default first window': ['GATE-RATE-429-ENVELOPE'],
      'the three route windows': ['GATE-RATE-429-ENVELOPE'],
      'the minute window': ['GATE-RATE-429-ENVELOPE'],
      'the hour window': ['GATE-RATE-429-ENVELOPE'],
    },
  },
  {
    quote: '| 409 | conflict | cancelling a terminal session',
    cases: {
      'cancelling a terminal session': ['GATE-SESS-CANCEL-TERMINAL-409'],
      'revoking a revoked key': {
        untestable:
          'no endpoint of either spec revokes a key (key rotation is the partner’s procedure, Authentication rule 8): a second revocation cannot be sent',
      },
      'consumed or expired quote': ['GATE-QUOTE-CONSUMED-409', 'GATE-QUOTE-EXPIRED-409'],
      'duplicate customer email or external_id': ['GATE-CUST-DUP-EMAIL-409', 'GATE-CUST-DUP-EXTERNAL-ID-409'],
      'idempotency fingerprint mismatch': [
        'GATE-SESS-IDEMPOTENCY-CONFLICT-409',
        'GATE-CUST-IDEMPOTENCY-CONFLICT-409',
        'GATE-RAIL-PAYIN-IDEMPOTENCY-CONFLICT-409',
      ],
    },
  },
  {
    quote: '| 403 | forbidden | revoked key, origin not allowed',
    cases: {
      'revoked key': ['GATE-AUTH-REVOKED-403'],
      'origin not allowed': ['GATE-EMBED-ORIGIN-EXACT'],
      'mode mismatch': ['GATE-AUTH-MODE-MISMATCH-403'],
      'session of another partner': ['GATE-RAIL-PAYOUT-FOREIGN-QUOTE', 'GATE-EMBED-CLIENT-SECRET-FOREIGN-REFUSED'],
      'rail access not enabled': ['GATE-QUOTE-NO-ENTITLEMENT-403', 'GATE-QUOTE-GET-NO-ENTITLEMENT-403', 'GATE-RAIL-ENTITLEMENT-403'],
    },
  },
  {
    quote: '| 400 | invalid_request | missing or malformed field',
    cases: {
      'missing or malformed field': ['GATE-ERR-400-INVALID-REQUEST'],
      'unknown key where strict': ['GATE-CUST-PATCH-UNKNOWN-400'],
      'immutable customer field': ['GATE-CUST-PATCH-IMMUTABLE-400'],
      'money or identity field on pay-out': ['GATE-RAIL-PAYOUT-MONEY-FIELD-400', 'GATE-RAIL-PAYOUT-IDENTITY-FIELD-400'],
      'no webhook_url for test': ['GATE-WHOPS-TEST-NO-URL-400'],
      'bad webhook list query': ['GATE-WHOPS-LIST-STATUS-FILTER'],
    },
  },
  {
    quote: 'Partner-scoped ids of another partner return 404.',
    cases: {
      sessions: ['GATE-SESS-CROSS-TENANT-404'],
      'customers (read and writes)': ['GATE-CUST-FOREIGN-404', 'GATE-AUTH-CROSS-TENANT-CUSTOMER-WRITE'],
      'signed quotes': ['GATE-AUTH-CROSS-TENANT-QUOTE'],
      transactions: ['GATE-TXN-FOREIGN-404'],
      'pay-ins': ['GATE-RAIL-PAYIN-FOREIGN-404'],
      'pay-outs': ['GATE-RAIL-PAYOUT-FOREIGN-404'],
      'delivery replay': ['GATE-WHOPS-REPLAY-FOREIGN-404'],
    },
  },
  {
    quote: 'Paths named: GET `/dashboard/usage`, GET `/dashboard/volume`',
    cases: {
      'GET /dashboard/usage': ['GATE-DASH-SK-ACCESS'],
      'GET /dashboard/volume': ['GATE-DASH-SK-ACCESS'],
      'GET /dashboard/webhook-settings': ['GATE-DASH-SK-ACCESS', 'GATE-DASH-WEBHOOK-SETTINGS'],
      'PATCH /dashboard/webhook-settings': ['GATE-DASH-WEBHOOK-SETTINGS'],
      'GET /dashboard/webhook-deliveries': ['GATE-DASH-SK-ACCESS'],
      'POST /dashboard/webhook-secret/rotate': ['GATE-DASH-SECRET-ROTATE'],
    },
  },
];
