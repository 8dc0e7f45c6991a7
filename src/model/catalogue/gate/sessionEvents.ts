// Gate "Events": the gate_session.* events fired by session transitions.
import { defineArea } from '../define.js';

const area = defineArea({
  service: 'gate',
  section: 'Events > Catalogue',
  entries: {
    'GATE-EVT-SESSION-CREATED': { title: 'gate_session.created fires when a session is created, data the session object', kind: 'event' },
    'GATE-EVT-SESSION-CANCELLED': { title: 'gate_session.cancelled fires when a session is cancelled, data the session object', kind: 'event' },
    'GATE-EVT-SESSION-COMPLETED': { title: 'gate_session.completed fires when a linked buy or sell succeeds, data the session object plus tx_refid', kind: 'event' },
    'GATE-EVT-SESSION-PROCESSING': { title: 'gate_session.processing fires when a linked buy or sell enters processing, data the session object', kind: 'event' },
    'GATE-EVT-SESSION-FAILED': { title: 'gate_session.failed fires when a linked buy or sell fails, data the session object', kind: 'event' },
    'GATE-EVT-SESSION-EXPIRED': { title: 'gate_session.expired fires once, when the session is first read past expires_at, data the session object', kind: 'event' },
    'GATE-EVT-KYC-PACKAGE-ACCEPTED': { title: 'gate_session.kyc_package_accepted fires when a KYC-trusted partner\'s package is accepted', kind: 'event' },
    'GATE-EVT-KYC-REQUIRED': {
      title: 'kyc.required fires when a session is blocked pending KYC, data gate_session_id, kyc_status and user_reference',
      kind: 'event',
      anchor: 'session blocked pending KYC',
    },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'gate/sessionEvents': typeof area.entries;
  }
}
