// Gate "Events": envelope, delivery headers, signature and the event catalogue.
// The Signature rule for receivers (reject a bad signature or a stale timestamp
// with 400) binds the partner's receiver, not the target: rampart's own receiver
// is held to it by test/receiver.test.ts, and no target requirement names it.
import { defineArea } from '../define.js';

const area = defineArea({
  service: 'gate',
  section: 'Events > Catalogue',
  entries: {
    'GATE-EVT-ENVELOPE-ID': {
      title: 'the envelope id is a UUID string (the event id)',
      kind: 'envelope',
      section: 'Events > Envelope',
      anchor: '`id` (string, UUID, the event id)',
    },
    'GATE-EVT-ENVELOPE-TYPE': {
      title: 'the envelope type is a string naming the event type',
      kind: 'envelope',
      section: 'Events > Envelope',
      anchor: '`type` (string)',
    },
    'GATE-EVT-ENVELOPE-CREATED-AT': {
      title: 'the envelope created_at is an integer of unix seconds',
      kind: 'envelope',
      section: 'Events > Envelope',
      anchor: ['`created_at` (integer, unix seconds)', 'except the webhook envelope `created_at`, which is an integer of unix seconds'],
    },
    'GATE-EVT-ENVELOPE-DATA': {
      title: 'the envelope data is an object',
      kind: 'envelope',
      section: 'Events > Envelope',
      anchor: 'unix seconds), `data` (object)',
    },
    'GATE-EVT-HEADER-SIGNATURE': {
      title: 'every delivery carries Gate-Signature of the form t=<unix-ts>,v1=<hex>',
      kind: 'signature',
      section: 'Events > Headers on every delivery',
      anchor: '| Gate-Signature | `t=<unix-ts>,v1=<hex>` |',
    },
    'GATE-EVT-HEADER-TIMESTAMP': {
      title: 'every delivery carries the timestamp header equal to t',
      kind: 'signature',
      section: 'Events > Headers on every delivery',
      anchor: ['| X-<svc>-Timestamp | `<unix-ts>`, same as `t` |', "(`<svc>` stands for the service's neutral name in the header names.)"],
    },
    'GATE-EVT-HEADER-EVENT-ID': {
      title: 'every delivery carries the event-id header equal to the envelope id',
      kind: 'envelope',
      section: 'Events > Headers on every delivery',
      anchor: ['| X-<svc>-Event-Id | `<uuid>`, the event id |', "(`<svc>` stands for the service's neutral name in the header names.)"],
    },
    'GATE-EVT-HEADER-EVENT-TYPE': {
      title: 'every delivery carries the event-type header equal to the envelope type',
      kind: 'envelope',
      section: 'Events > Headers on every delivery',
      anchor: ['| X-<svc>-Event-Type | the event type |', "(`<svc>` stands for the service's neutral name in the header names.)"],
    },
    'GATE-SIG-HMAC': {
      title: 'v1 is the hex HMAC-SHA256 keyed with the signing secret over t + "." + the raw body bytes',
      kind: 'signature',
      section: 'Events > Signature',
      anchor: [
        '`v1` is the hex HMAC-SHA256, keyed with the webhook signing secret, over the string `<t>` + `.` + raw request body bytes.',
        '| Webhook signing secret | `whsec_*` | server only | verify webhook signatures |',
        'A receiver must sign the raw bytes',
        'The service POSTs signed JSON events',
      ],
    },
    'GATE-SIG-TIMESTAMP-FRESH': {
      title: 'the signed timestamp is within 300 seconds of now',
      kind: 'signature',
      section: 'Events > Signature',
      anchor: ['reject a timestamp more than 300 seconds from now', '300 s signature skew'],
    },
    'GATE-EVT-CUSTOMER-CREATED': {
      title: 'customer.created fires when a customer is created, data the customer object',
      kind: 'event',
      anchor:
        '| customer.created / customer.updated / customer.deleted | customer record created, changed, deleted | customer object (deleted: object or its id) |',
    },
    'GATE-EVT-CUSTOMER-UPDATED': {
      title: 'customer.updated fires when a customer changes, data the customer object',
      kind: 'event',
      anchor: '| customer.created / customer.updated / customer.deleted |',
    },
    'GATE-EVT-CUSTOMER-DELETED': {
      title: 'customer.deleted fires when a customer is deleted, data the customer object or its id',
      kind: 'event',
      anchor: '| customer.created / customer.updated / customer.deleted |',
    },
    'GATE-EVT-DATA-PER-TYPE': {
      title:
        'data is shaped per the catalogue: the session object for gate_session.* (plus tx_refid for completed), the customer object for customer.* (deleted: object or its id), livemode false and message for webhook.test',
      kind: 'event',
      anchor: [
        '| gate_session.created | session created | session object |',
        '| gate_session.cancelled | session cancelled | session object |',
        '| webhook.test | only via POST /webhooks/test, never on its own | `livemode` = false, `message` string |',
      ],
    },
    'GATE-EVT-WEBHOOK-TEST-ONLY': {
      title: 'webhook.test is sent only via POST /webhooks/test, never on its own',
      kind: 'event',
      anchor: '| webhook.test | only via POST /webhooks/test, never on its own |',
    },
    'GATE-EVT-KYC-REQUIRED': {
      title: 'kyc.required fires when a session is blocked pending KYC, data the gate_session_id, kyc_status and user_reference of that session',
      kind: 'event',
      anchor: '| kyc.required | session blocked pending KYC | `gate_session_id`, `kyc_status`, `user_reference` |',
      // No documented request blocks a session pending KYC: only a sandbox control reaches it.
      needs: ['gateRequireKyc'],
    },
    'GATE-EVT-QUOTA-WARNING': {
      title: 'partner.quota.warning fires when the partner approaches a usage quota, data an object of usage counters',
      kind: 'event',
      anchor: '| partner.quota.warning | approaching a usage quota | usage counters |',
      needs: ['gateQuotaWarning'],
    },
    'GATE-EVT-QUOTA-EXHAUSTED': {
      title: 'partner.quota.exhausted fires when a usage quota is exhausted, data an object of usage counters',
      kind: 'event',
      anchor: '| partner.quota.exhausted | quota exhausted, requests throttled or refused | usage counters |',
      needs: ['gateQuotaExhausted'],
    },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'gate/events': typeof area.entries;
  }
}
