// Gate "Events": envelope, delivery headers, signature and the event catalogue.
import type { Requirement } from '../types.js';

const ev = (id: string, section: string, title: string, kind: Requirement['kind'], roles: Requirement['roles'] = ['gate.webhooks']): Requirement => ({
  id,
  service: 'gate',
  section,
  title,
  kind,
  roles,
  suite: 'conformance',
});

const ENV = 'Events > Envelope';
const HDR = 'Events > Headers on every delivery';
const SIG = 'Events > Signature';
const CAT = 'Events > Catalogue';

export const requirements: Requirement[] = [
  ev('GATE-EVT-ENVELOPE-ID', ENV, 'the envelope id is a UUID string (the event id)', 'envelope'),
  ev('GATE-EVT-ENVELOPE-TYPE', ENV, 'the envelope type is a string naming the event type', 'envelope'),
  ev('GATE-EVT-ENVELOPE-CREATED-AT', ENV, 'the envelope created_at is an integer of unix seconds', 'envelope'),
  ev('GATE-EVT-ENVELOPE-DATA', ENV, 'the envelope data is an object', 'envelope'),
  ev('GATE-EVT-HEADER-SIGNATURE', HDR, 'every delivery carries Gate-Signature of the form t=<unix-ts>,v1=<hex>', 'signature'),
  ev('GATE-EVT-HEADER-TIMESTAMP', HDR, 'every delivery carries the timestamp header equal to t', 'signature'),
  ev('GATE-EVT-HEADER-EVENT-ID', HDR, 'every delivery carries the event-id header equal to the envelope id', 'envelope'),
  ev('GATE-EVT-HEADER-EVENT-TYPE', HDR, 'every delivery carries the event-type header equal to the envelope type', 'envelope'),
  ev('GATE-SIG-HMAC', SIG, 'v1 is the hex HMAC-SHA256 keyed with the signing secret over t + "." + the raw body bytes', 'signature'),
  ev('GATE-SIG-TIMESTAMP-FRESH', SIG, 'the signed timestamp is within 300 seconds of now', 'signature'),
  ev('GATE-SIG-RECEIVER-REJECTS-BAD', SIG, 'a receiver rejects an invalid signature or a timestamp more than 300 s from now with 400 (constant-time compare)', 'signature', []),
  ev('GATE-EVT-SESSION-CREATED', CAT, 'gate_session.created fires when a session is created, data the session object', 'event'),
  ev('GATE-EVT-SESSION-CANCELLED', CAT, 'gate_session.cancelled fires when a session is cancelled, data the session object', 'event'),
  ev('GATE-EVT-SESSION-COMPLETED', CAT, 'gate_session.completed fires when a linked buy or sell succeeds, data the session object plus tx_refid', 'event', ['gate.webhooks', 'gate.trigger.complete']),
  ev('GATE-EVT-SESSION-PROCESSING', CAT, 'gate_session.processing fires when a linked buy or sell enters processing, data the session object', 'event', ['gate.webhooks', 'gate.trigger.process']),
  ev('GATE-EVT-SESSION-FAILED', CAT, 'gate_session.failed fires when a linked buy or sell fails, data the session object', 'event', ['gate.webhooks', 'gate.trigger.fail']),
  ev('GATE-EVT-SESSION-EXPIRED', CAT, 'gate_session.expired fires once, when the session is first read past expires_at, data the session object', 'event', ['gate.webhooks', 'gate.trigger.expire', 'gate.publishableKey']),
  ev('GATE-EVT-KYC-PACKAGE-ACCEPTED', CAT, 'gate_session.kyc_package_accepted fires when a KYC-trusted partner\'s package is accepted', 'event', ['gate.webhooks', 'gate.kycTrusted']),
  ev('GATE-EVT-CUSTOMER-CREATED', CAT, 'customer.created fires when a customer is created, data the customer object', 'event'),
  ev('GATE-EVT-CUSTOMER-UPDATED', CAT, 'customer.updated fires when a customer changes, data the customer object', 'event'),
  ev('GATE-EVT-CUSTOMER-DELETED', CAT, 'customer.deleted fires when a customer is deleted, data the customer object or its id', 'event'),
  ev('GATE-EVT-DATA-PER-TYPE', CAT, 'data is shaped per the catalogue: the session object for gate_session.* (plus tx_refid for completed), gate_session_id, kyc_status and user_reference for kyc.required, the customer object for customer.* (deleted: object or its id), livemode false and message for webhook.test', 'event'),
  ev('GATE-EVT-WEBHOOK-TEST-ONLY', CAT, 'webhook.test is sent only via POST /webhooks/test, never on its own', 'event'),
];
