// Gate "Events": the gate_session.* events fired by session transitions.
import { defineArea } from '../define.js';

const area = defineArea({
  service: 'gate',
  section: 'Events > Catalogue',
  entries: {
    'GATE-EVT-SESSION-CREATED': {
      title: 'gate_session.created fires when a session is created, data the session object',
      kind: 'event',
      anchor: '| gate_session.created | session created | session object |',
    },
    'GATE-EVT-SESSION-CANCELLED': {
      title: 'gate_session.cancelled fires when a session is cancelled, data the session object',
      kind: 'event',
      anchor: ['| gate_session.cancelled | session cancelled | session object |', 'event gate_session.cancelled'],
    },
    'GATE-EVT-SESSION-COMPLETED': {
      title: 'gate_session.completed fires when a linked buy or sell succeeds, data the session object plus tx_refid',
      kind: 'event',
      anchor: ['| gate_session.completed | linked buy or sell succeeds | session object plus `tx_refid` |', 'event gate_session.completed carries `tx_refid`'],
    },
    'GATE-EVT-SESSION-PROCESSING': {
      title: 'gate_session.processing fires when a linked buy or sell enters processing, data the session object',
      kind: 'event',
      anchor: [
        '| gate_session.processing | linked buy or sell enters processing | session object |',
        'Events gate_session.processing and gate_session.failed fire when a linked buy or sell enters processing or fails.',
      ],
    },
    'GATE-EVT-SESSION-FAILED': {
      title: 'gate_session.failed fires when a linked buy or sell fails, data the session object',
      kind: 'event',
      anchor: [
        '| gate_session.failed | linked buy or sell fails | session object |',
        'Events gate_session.processing and gate_session.failed fire when a linked buy or sell enters processing or fails.',
      ],
    },
    'GATE-EVT-SESSION-EXPIRED': {
      title: 'gate_session.expired fires once, when the session is first read past expires_at, data the session object',
      kind: 'event',
      anchor: ['| gate_session.expired | session first read past `expires_at` | session object |', 'event gate_session.expired on first read past expiry'],
    },
    'GATE-EVT-KYC-PACKAGE-ACCEPTED': {
      title: "gate_session.kyc_package_accepted fires when a KYC-trusted partner's package is accepted",
      kind: 'event',
      anchor: "| gate_session.kyc_package_accepted | a KYC-trusted partner's package is accepted | redacted record: correlation ids and a timestamp |",
    },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'gate/sessionEvents': typeof area.entries;
  }
}
