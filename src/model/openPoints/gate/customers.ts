// Open points of the Gate spec's customers: what a creation takes and answers, kyc_status, the list, the deleted
// marker and its event (Endpoints > Customers; Resources and their fields > Customer).
import { defineOpenPoints } from '../define.js';

const area = defineOpenPoints({
  spec: 'gate',
  section: 'Endpoints > Customers',
  entries: {
    'gate.customer.createFields': {
      kind: 'not-shown',
      passage: 'Customer fields accepted at creation and the allowed values of kyc_status: not shown.',
      what: "the fields a customer creation requires: the identity (external_id, email, phone), or a country_code too (the world's profile then declares it in gate.customerTemplate)",
      choices: ['identity-only', 'country-required'],
      readBy: ['support/gate/customers.ts'],
    },
    'gate.customer.kycValues': {
      kind: 'not-shown',
      passage: 'Customer fields accepted at creation and the allowed values of kyc_status: not shown.',
      what: 'the kyc_status a new customer reads and the one it may move to: not_started then pending, or unverified then in_review',
      choices: ['not_started', 'unverified'],
      readBy: ['conformance/gate/customers.ts', 'conformance/gate/sessionEvents.ts'],
    },
    'gate.customer.kycMoves': {
      kind: 'when',
      passage: '`kyc_status` is informational and cannot be set by the partner.',
      what: "whether a customer's kyc_status (server-managed) moves on its own: never, or a second after creation",
      choices: ['never', 'after-1s'],
      readBy: ['conformance/gate/customers.ts', 'relation:GATE_CUSTOMER_RELATIONS'],
      note: 'the choice sets the reference.customerKycPendingAfterSeconds knob (a world effect: absent, or 1)',
    },
    'gate.customer.createStatus': {
      kind: 'success-status',
      passage: 'Request body, response and status code: not shown.',
      what: 'the success status of POST /customers',
      choices: ['201', '200'],
      readBy: ['support/gate/customers.ts'],
    },
    'gate.customer.listCursor': {
      kind: 'not-shown',
      passage: 'Lists Customers excluding soft-deleted. Query parameters: not shown.',
      what: 'what GET /customers answers to a starting_after that names no customer of the caller: 400, or an empty page',
      choices: ['unknown-400', 'unknown-empty'],
      readBy: ['support/gate/lists.ts', 'support/gate/customers.ts'],
    },
    'gate.customer.phoneRepeat': {
      kind: 'reading',
      passage: '| phone | string | immutable after creation |',
      what: 'whether two customers of a partner may share a phone: only email and external_id are said to be unique, and a target may refuse a repeated phone too (409)',
      choices: ['may-repeat', 'unique'],
      readBy: ['support/gate/customers.ts', 'src/explore/commands/gate/customers.ts'],
    },
    'gate.customer.deletedEventData': {
      kind: 'reading',
      passage: 'customer object (deleted: object or its id)',
      what: "customer.deleted's data: the deleted marker object, or the customer's id (in an object: the envelope's data is one)",
      choices: ['marker', 'id'],
      readBy: ['conformance/gate/events.ts', 'src/model/schemas/gate/webhooks.ts'],
    },
    'gate.customer.deletedAt': {
      kind: 'nullable',
      passage: '`deleted_at` (string or null, RFC 3339)',
      what: "whether the deleted marker's deleted_at is stamped or null",
      choices: ['stamped', 'null'],
      readBy: ['conformance/gate/customers.ts', 'relation:GATE_DELETED_CUSTOMER_RELATIONS'],
    },
    'gate.customer.countryCase': {
      kind: 'spelling',
      passage: 'ISO 3166-1 alpha-2, pattern `^[A-Za-z]{2}$`',
      what: 'how a customer country_code sent in lower case reads back: as sent, or upper-cased',
      choices: ['as-sent', 'uppercased'],
      readBy: ['conformance/gate/customers.ts', 'relation:GATE_CUSTOMER_RELATIONS'],
    },
    'gate.customer.missingOrder': {
      kind: 'validation-order',
      passage: 'Customer; 404 if missing, soft-deleted or foreign.',
      what: 'which error a PATCH with an invalid body on a missing customer gets: 404 (the customer is looked up first) or 400 (the body is checked first)',
      choices: ['404-first', '400-first'],
      readBy: ['conformance/gate/customers.ts'],
    },
  },
});

export default area;

declare module '../define.js' {
  interface OpenPointAreas {
    'gate/customers': typeof area.entries;
  }
}
