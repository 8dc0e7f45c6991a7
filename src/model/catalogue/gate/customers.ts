// Gate "Endpoints > Customers" with the Customer resource, its soft delete and limits.
import { defineArea } from '../define.js';

const area = defineArea({
  service: 'gate',
  section: 'Endpoints > Customers',
  entries: {
    'GATE-CUST-CREATE': {
      title:
        'POST /customers with an Idempotency-Key creates a Customer (object customer, mode, livemode, external_id, email, phone, names, country_code, kyc_status, metadata, timestamps)',
      kind: 'status',
      anchor: [
        '| POST | /customers | `Idempotency-Key`. Creates a Customer.',
        'A customer is a CRM-style partner record.',
        '| id | string |  |',
        '| object | string | `customer` |',
        '| mode | string | server-managed, `test` or `live` |',
        '| livemode | boolean |  |',
        '| metadata | object | free-form key/value |',
        '| created_at, updated_at | string | RFC 3339 |',
        'Single-object responses carry an `object` discriminator string.',
      ],
    },
    'GATE-CUST-GET': { title: 'GET /customers/{id} answers the Customer', kind: 'status', anchor: '| GET | /customers/{id} | Customer;' },
    'GATE-CUST-GET-404': {
      title: 'GET /customers/{id} of a missing customer gives 404',
      kind: 'error',
      anchor: '| GET | /customers/{id} | Customer; 404 if missing',
    },
    'GATE-CUST-FOREIGN-404': {
      title: "GET /customers/{id} of another partner's customer gives 404",
      kind: 'auth',
      anchor: ['404 if missing, soft-deleted or foreign', 'Partner-scoped ids of another partner return 404.'],
    },
    'GATE-CUST-LIST': {
      title: 'GET /customers answers a list of Customer',
      kind: 'envelope',
      anchor: [
        '| GET | /customers | Lists Customers',
        'List envelope: `object` = `list`, `data` (array), `has_more` (boolean), `url` (string, path of the list).',
      ],
    },
    'GATE-CUST-DUP-EMAIL-409': {
      title: 'Creating a customer with a duplicate email gives 409 conflict',
      kind: 'error',
      anchor: ["Duplicate `email` or `external_id` (including a soft-deleted customer's) gives 409.", 'duplicate customer email or external_id'],
    },
    'GATE-CUST-DUP-EXTERNAL-ID-409': {
      title: 'Creating a customer with a duplicate external_id gives 409 conflict',
      kind: 'error',
      anchor: ["Duplicate `email` or `external_id` (including a soft-deleted customer's) gives 409.", '| 409 | conflict | cancelling a terminal session'],
    },
    'GATE-CUST-DUP-SOFT-DELETED-409': {
      title: "A soft-deleted customer's email and external_id stay reserved: duplicates give 409",
      kind: 'error',
      section: 'States and transitions > Other',
      anchor: ['Its email and external_id stay reserved.', "(including a soft-deleted customer's) gives 409"],
    },
    'GATE-CUST-PATCH-SET': {
      title: 'PATCH /customers/{id} sets first_name, last_name and country_code; 200 with the Customer',
      kind: 'field',
      anchor: '| PATCH | /customers/{id} | Body (every field optional): `first_name` (string or null, max 128)',
    },
    'GATE-CUST-PATCH-NULL-CLEARS': {
      title: 'PATCH with null clears first_name, last_name, country_code',
      kind: 'field',
      anchor: 'Null clears a field; an omitted field is unchanged.',
    },
    'GATE-CUST-PATCH-OMITTED-UNCHANGED': {
      title: 'PATCH leaves omitted fields unchanged',
      kind: 'field',
      anchor: 'Null clears a field; an omitted field is unchanged.',
    },
    'GATE-CUST-PATCH-METADATA-REPLACE': {
      title: 'PATCH metadata replaces the stored object (no merge)',
      kind: 'field',
      anchor: '`metadata` (object, replaces the stored object)',
    },
    'GATE-CUST-PATCH-IMMUTABLE-400': {
      title: 'PATCH of email, phone, external_id (immutable) or kyc_status, mode (server-managed) gives 400 invalid_request',
      kind: 'error',
      section: 'Resources and their fields > Customer',
      anchor: [
        '`email`, `phone`, `external_id`, `kyc_status`, `mode` or any unknown key gives 400.',
        '| external_id | string | immutable after creation |',
        '| email | string | immutable after creation |',
        '| phone | string | immutable after creation |',
        '| kyc_status | string | server-managed, informational |',
        '| mode | string | server-managed, `test` or `live` |',
        'immutable customer field',
      ],
    },
    'GATE-CUST-PATCH-UNKNOWN-400': {
      title: 'PATCH with an unknown key gives 400 invalid_request',
      kind: 'error',
      anchor: ['or any unknown key gives 400', 'unknown key where strict'],
    },
    'GATE-CUST-PATCH-NAME-MAX': {
      title: 'first_name and last_name of 128 chars are accepted, 129 gives 400',
      kind: 'limit',
      section: 'Limits',
      anchor: ['| first_name | string or null | max 128 chars |', '| last_name | string or null | max 128 chars |', 'Customers: names ≤ 128 chars.'],
    },
    'GATE-CUST-COUNTRY-PATTERN': {
      title: 'country_code matches ^[A-Za-z]{2}$; other values give 400',
      kind: 'field',
      section: 'Resources and their fields > Customer',
      anchor: '| country_code | string or null | ISO 3166-1 alpha-2, pattern `^[A-Za-z]{2}$` |',
    },
    'GATE-CUST-DELETE-MARKER': {
      title: 'DELETE /customers/{id} soft-deletes: 200 with the marker (id, object customer, deleted true, deleted_at)',
      kind: 'transition',
      anchor: [
        'Deleted customer marker: `id`, `object` = `customer`, `deleted` = true, `deleted_at` (string or null, RFC 3339).',
        'Customer: DELETE soft-deletes.',
        '200 with the deleted marker.',
        'Single-object responses carry an `object` discriminator string.',
      ],
    },
    'GATE-CUST-DELETE-IDEMPOTENT': {
      title: 'A repeated DELETE returns the same marker',
      kind: 'idempotency',
      anchor: 'Soft delete, idempotent; a repeat returns the same marker.',
    },
    'GATE-CUST-DELETED-404': {
      title: 'A soft-deleted customer reads as 404',
      kind: 'transition',
      section: 'States and transitions > Other',
      anchor: ['A soft-deleted customer reads as 404', '404 if missing, soft-deleted or foreign'],
    },
    'GATE-CUST-LIST-EXCLUDES-DELETED': {
      title: 'A soft-deleted customer is excluded from GET /customers',
      kind: 'transition',
      section: 'States and transitions > Other',
      anchor: ['and is excluded from lists', 'Lists Customers excluding soft-deleted.'],
    },
    'GATE-CUST-KYC-STATUS-NOT-SETTABLE': {
      title:
        'kyc_status is informational and cannot be set by the partner: a creation carrying kyc_status is refused (4xx) or creates a customer whose kyc_status is not the value sent',
      kind: 'field',
      section: 'What the service does',
      anchor: '`kyc_status` is informational and cannot be set by the partner.',
    },
    'GATE-CUST-IDEMPOTENT-REPLAY': {
      title: 'A POST /customers repeated with the same Idempotency-Key and body returns the original response: the same customer, no second one',
      kind: 'idempotency',
      anchor: '| POST | /customers | `Idempotency-Key`.',
    },
    'GATE-CUST-IDEMPOTENCY-CONFLICT-409': {
      title: 'The same Idempotency-Key with another customer body gives 409 conflict and creates nothing',
      kind: 'idempotency',
      section: 'Errors',
      anchor: ['| POST | /customers | `Idempotency-Key`.', 'idempotency fingerprint mismatch'],
    },
    'GATE-CUST-LIST-TENANT': {
      title: "GET /customers never lists another partner's customer",
      kind: 'auth',
      section: 'What the service does',
      anchor: 'Every resource is scoped to the partner and the environment (test or live) of the credential.',
    },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'gate/customers': typeof area.entries;
  }
}
