// Gate "Events": envelope, delivery headers, signature and the event catalogue.
// The Signature rule for receivers (reject a bad signature or a stale timestamp
// with 400) binds the partner's receiver, not the target: rampart's own receiver
// is held to it by test/receiver.test.ts, and no target requirement names it.
import { defineArea } from '../define.js';

const area = defineArea({
  service: 'gate',
  section: 'Events > Catalogue',
  entries: {
    'GATE-EVT-ENVELOPE-ID': { title: 'the envelope id is a UUID string (the event id)', kind: 'envelope', section: 'Events > Envelope' },
    'GATE-EVT-ENVELOPE-TYPE': { title: 'the envelope type is a string naming the event type', kind: 'envelope', section: 'Events > Envelope' },
    'GATE-EVT-ENVELOPE-CREATED-AT': { title: 'the envelope created_at is an integer of unix seconds', kind: 'envelope', section: 'Events > Envelope' },
    'GATE-EVT-ENVELOPE-DATA': { title: 'the envelope data is an object', kind: 'envelope', section: 'Events > Envelope' },
    'GATE-EVT-HEADER-SIGNATURE': { title: 'every delivery carries Gate-Signature of the form t=<unix-ts>,v1=<hex>', kind: 'signature', section: 'Events > Headers on every delivery' },
    'GATE-EVT-HEADER-TIMESTAMP': { title: 'every delivery carries the timestamp header equal to t', kind: 'signature', section: 'Events > Headers on every delivery' },
    'GATE-EVT-HEADER-EVENT-ID': { title: 'every delivery carries the event-id header equal to the envelope id', kind: 'envelope', section: 'Events > Headers on every delivery' },
    'GATE-EVT-HEADER-EVENT-TYPE': { title: 'every delivery carries the event-type header equal to the envelope type', kind: 'envelope', section: 'Events > Headers on every delivery' },
    'GATE-SIG-HMAC': { title: 'v1 is the hex HMAC-SHA256 keyed with the signing secret over t + "." + the raw body bytes', kind: 'signature', section: 'Events > Signature' },
    'GATE-SIG-TIMESTAMP-FRESH': { title: 'the signed timestamp is within 300 seconds of now', kind: 'signature', section: 'Events > Signature' },
    'GATE-EVT-CUSTOMER-CREATED': { title: 'customer.created fires when a customer is created, data the customer object', kind: 'event' },
    'GATE-EVT-CUSTOMER-UPDATED': { title: 'customer.updated fires when a customer changes, data the customer object', kind: 'event' },
    'GATE-EVT-CUSTOMER-DELETED': { title: 'customer.deleted fires when a customer is deleted, data the customer object or its id', kind: 'event' },
    'GATE-EVT-DATA-PER-TYPE': { title: 'data is shaped per the catalogue: the session object for gate_session.* (plus tx_refid for completed), gate_session_id, kyc_status and user_reference for kyc.required, the customer object for customer.* (deleted: object or its id), livemode false and message for webhook.test', kind: 'event' },
    'GATE-EVT-WEBHOOK-TEST-ONLY': { title: 'webhook.test is sent only via POST /webhooks/test, never on its own', kind: 'event' },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'gate/events': typeof area.entries;
  }
}
