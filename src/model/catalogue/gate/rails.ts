// Gate "Endpoints > Rails" (pay-out rules) and the rail_pay_out resource.
import { defineArea } from '../define.js';

const area = defineArea({
  service: 'gate',
  section: 'Endpoints > Rails',
  entries: {
    'GATE-RAIL-PAYOUT-201': {
      title:
        'POST /rails/pay_outs answers 201 with a rail_pay_out (id, kind pay_out, status, gate_session_id, quote_id, method, amount, currency, reference, created_at)',
      kind: 'status',
      anchor: [
        'Response 201: rail_pay_out.',
        '`object`=`rail_pay_out`, `id`, `kind`=`pay_out`, `status` (`pending`, `processing`, `settled`, `failed`, `cancelled`)',
        'Pay-out states are listed above.',
        'Single-object responses carry an `object` discriminator string.',
      ],
    },
    'GATE-RAIL-PAYOUT-AMOUNT-FROM-QUOTE': {
      title: "The pay-out amount equals the quote's fiat_pay_or_receive",
      kind: 'field',
      section: 'Resources and their fields > Rail pay-out',
      anchor: [
        "`amount` (decimal string, fee-inclusive amount the customer receives, equal to the quote's `fiat_pay_or_receive`)",
        '`amount`, `currency` and `method` come from the locked quote and are not accepted in the body.',
      ],
    },
    'GATE-RAIL-PROVIDER-FIELD': {
      title: 'Rail responses carry a provider field (reconciliation data only): the pay-out creation and read, the pay-in creation and read',
      kind: 'field',
      section: 'Endpoints > Rails > Pay-out rules',
      anchor: 'Rail responses carry a `provider` field that is reconciliation data only.',
    },
    'GATE-RAIL-PAYOUT-READ': {
      title: 'GET /rails/pay_outs/{id} answers the rail_pay_out',
      kind: 'status',
      anchor: '| GET | /rails/pay_outs/{id} | One rail_pay_out. |',
    },
    'GATE-RAIL-PAYOUT-FOREIGN-404': {
      title: "GET /rails/pay_outs/{id} of another partner's pay-out gives 404 (never 403)",
      kind: 'auth',
      section: 'Errors',
      anchor: ['| GET | /rails/pay_outs/{id} | One rail_pay_out. |', 'Partner-scoped ids of another partner return 404.'],
    },
    'GATE-RAIL-PAYOUT-FOREIGN-QUOTE': {
      title:
        "A pay-out naming another partner's session and signed quote is refused (403 or 404: the spec gives both for another partner's session) and leaves the quote redeemable by its owner",
      kind: 'auth',
      section: 'Authentication',
      anchor: ['or a session of another partner gives 403', 'session of another partner, rail access not enabled'],
    },
    'GATE-RAIL-PAYOUT-IDEMPOTENT-REPLAY': {
      title: 'A repeat with the same Idempotency-Key and body returns the original pay-out',
      kind: 'idempotency',
      anchor: '`Idempotency-Key` (UUID, required)',
    },
    'GATE-RAIL-PAYOUT-IDEMPOTENCY-REQUIRED': {
      title: 'POST /rails/pay_outs without an Idempotency-Key gives 400',
      kind: 'idempotency',
      anchor: '| POST | /rails/pay_outs | Headers: `Authorization` (SK), `Idempotency-Key` (UUID, required), `Content-Type: application/json`.',
    },
    'GATE-RAIL-PAYOUT-IDEMPOTENCY-KEY-UUID': {
      title: 'The Idempotency-Key of POST /rails/pay_outs is a UUID: a key that is not one gives 400 (and redeems nothing)',
      kind: 'idempotency',
      anchor: '| POST | /rails/pay_outs | Headers: `Authorization` (SK), `Idempotency-Key` (UUID, required), `Content-Type: application/json`.',
    },
    'GATE-RAIL-PAYOUT-METADATA-OBJECT': {
      title: 'metadata of a pay-out is an object: a string or an array gives 400 (and redeems nothing)',
      kind: 'error',
      anchor: '`reference` (string, max 128, optional), `metadata` (object, optional)',
    },
    'GATE-RAIL-PAYOUT-REQUIRED-400': {
      title: 'A pay-out without gate_session_id or quote_id gives 400',
      kind: 'error',
      anchor: 'Body: `gate_session_id` (string, max 64, required), `quote_id` (string, max 64, required)',
    },
    'GATE-RAIL-PAYOUT-MONEY-FIELD-400': {
      title: 'Any money field in the pay-out body (amount, currency, method, fee…) gives 400',
      kind: 'error',
      anchor: [
        '`amount`, `currency` and `method` come from the locked quote and are not accepted in the body.',
        'Any money field or identity/payout-instruction field in the body gives 400.',
        'money or identity field on pay-out',
      ],
    },
    'GATE-RAIL-PAYOUT-IDENTITY-FIELD-400': {
      title: 'Any identity or payout-instruction field in the pay-out body (iban, account_number, name, email…) gives 400',
      kind: 'error',
      anchor: [
        'Payout instructions and identity data come from the verified user record.',
        'Any money field or identity/payout-instruction field in the body gives 400.',
        '| 400 | invalid_request | missing or malformed field',
      ],
    },
    'GATE-RAIL-PAYOUT-ID-MAX': {
      title: 'gate_session_id and quote_id longer than 64 chars give 400; 64 chars are within the limit (not refused for their length)',
      kind: 'limit',
      section: 'Limits',
      anchor: ['`gate_session_id` (string, max 64, required), `quote_id` (string, max 64, required)', 'Pay-out: `gate_session_id` and `quote_id` ≤ 64'],
    },
    'GATE-RAIL-PAYOUT-REFERENCE-MAX': {
      title: 'reference of 128 chars is accepted, 129 gives 400',
      kind: 'limit',
      section: 'Limits',
      anchor: ['`reference` (string, max 128, optional)', '`reference` ≤ 128.'],
    },
    'GATE-RAIL-PAYIN-REDEEMS': {
      title: 'POST /rails/pay_ins redeems the signed quote: a later pay-out on it gives 409',
      kind: 'transition',
      anchor: '| POST | /rails/pay_ins | Redeems a signed quote into a pay-in',
    },
    'GATE-RAIL-ENTITLEMENT-403': {
      title: 'A rail call without rail access gives 403 forbidden',
      kind: 'auth',
      section: 'Errors',
      anchor: [
        'When a rail is not enabled the service may return a `feature_not_available` error.',
        'rail = SK plus rail entitlement',
        'rail access not enabled',
      ],
    },
    'GATE-RAIL-PAYOUT-CURRENCY-METHOD-FROM-QUOTE': {
      title:
        "The pay-out's currency and method are the locked quote's (as the lock or GET /quotes/{id} shows them; a currency they do not show is the session's, which fixes it)",
      kind: 'field',
      section: 'Resources and their fields > Rail pay-out',
      anchor: ['`method` (derived from the quote)', '`amount`, `currency` and `method` come from the locked quote and are not accepted in the body.'],
    },
    'GATE-RAIL-PAYIN-READ': {
      title: 'GET /rails/pay_ins/{id} answers the pay-in record a pay-in created: a single object with its object discriminator and that id',
      kind: 'status',
      anchor: ['| GET | /rails/pay_ins/{id} | One pay-in record. |', 'Single-object responses carry an `object` discriminator string.'],
    },
    'GATE-RAIL-PAYIN-FOREIGN-404': {
      title: "GET /rails/pay_ins/{id} of another rail-entitled partner's pay-in gives 404 (never 403)",
      kind: 'auth',
      section: 'Errors',
      anchor: ['| GET | /rails/pay_ins/{id} | One pay-in record. |', 'Partner-scoped ids of another partner return 404.'],
    },
    'GATE-RAIL-PAYIN-IDEMPOTENT-REPLAY': {
      title: 'A pay-in repeated with the same Idempotency-Key and body returns the original response (the quote is not redeemed twice)',
      kind: 'idempotency',
      anchor: 'Redeems a signed quote into a pay-in (`Idempotency-Key`).',
    },
    'GATE-RAIL-PAYIN-IDEMPOTENCY-CONFLICT-409': {
      title: 'The same Idempotency-Key with another pay-in body gives 409 conflict and redeems nothing',
      kind: 'idempotency',
      section: 'Errors',
      anchor: ['Redeems a signed quote into a pay-in (`Idempotency-Key`).', 'idempotency fingerprint mismatch'],
    },
    'GATE-RAIL-ACCOUNT-BLOCKED': {
      title:
        "account_blocked is present, and true, only on the rail that pushed the user past the per-user cumulative volume cap (absent before it); the user's later rails are then refused",
      kind: 'field',
      section: 'Resources and their fields > Rail pay-out',
      anchor: [
        '`account_blocked` (boolean, present only when true: the rail pushed the user past the cumulative volume cap and the account is blocked for future rails pending manual review)',
        'Per-user cumulative volume cap on rails exists',
      ],
      // The cap's value is not shown: the profile declares it for a partner (railVolumeCap).
      needs: ['gateRailVolumeCap'],
    },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'gate/rails': typeof area.entries;
  }
}
