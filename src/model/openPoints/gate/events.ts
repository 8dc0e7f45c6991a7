// Open points of the Gate spec's events: the envelope, the contracts not listed, the quota counters and when an
// http webhook_url is refused in live mode (Events).
import { defineOpenPoints } from '../define.js';

const area = defineOpenPoints({
  spec: 'gate',
  section: 'Events',
  entries: {
    'gate.events.envelope': {
      kind: 'not-shown',
      passage: 'Other envelope fields: not shown.',
      what: 'whether an event envelope carries fields beyond id, type, created_at and data (object, livemode, api_version)',
      choices: ['four-fields', 'with-extras'],
      readBy: ['conformance/gate/events.ts', 'src/model/schemas/gate/webhooks.ts'],
    },
    'gate.events.unlisted': {
      kind: 'not-shown',
      passage: 'The service publishes 20 event contracts; the 14 above are the ones listed.',
      what: 'whether the service also sends event types the catalogue does not list (a session change and a customer change beside the listed ones): receivers and checks must tolerate them',
      choices: ['listed-only', 'unlisted-too'],
      readBy: ['conformance/gate/events.ts', 'conformance/gate/sessionEvents.ts', 'src/webhooks/receiver.ts', 'chaos/gate/duplicates.ts'],
    },
    'gate.events.quotaCounters': {
      kind: 'not-shown',
      passage: 'Data shapes of the remaining contracts and the exact shape of quota counters: not shown.',
      what: "the shape of the quota events' usage counters: flat fields, or nested under a quota object",
      choices: ['flat', 'nested'],
      readBy: ['conformance/gate/events.ts'],
    },
    'gate.events.kycRequiredStatus': {
      kind: 'value',
      passage: '`gate_session_id`, `kyc_status`, `user_reference`',
      what: 'the kyc_status kyc.required carries: pending, or required',
      choices: ['pending', 'required'],
      readBy: ['conformance/gate/sessionEvents.ts', 'src/model/schemas/gate/webhooks.ts'],
    },
    'gate.events.liveHttp': {
      kind: 'when',
      passage: 'HTTPS required in live mode',
      what: 'when "HTTPS required in live mode" is enforced: an http webhook_url is refused at the settings call, or accepted there and never sent to',
      choices: ['refuse', 'undelivered'],
      readBy: ['support/gate/liveHttp.ts', 'conformance/gate/dashboard.ts'],
      note: 'the choice is the value of the reference.liveHttpWebhooks knob (a world effect sets it)',
    },
  },
});

export default area;

declare module '../define.js' {
  interface OpenPointAreas {
    'gate/events': typeof area.entries;
  }
}
