// Open points of the Gate spec's sessions: creation, the list, the session's fields and when its status moves
// (Endpoints > Sessions; Resources and their fields > GateSession; States and transitions > Session; Limits).
import { defineOpenPoints } from '../define.js';

const area = defineOpenPoints({
  spec: 'gate',
  section: 'Endpoints > Sessions',
  entries: {
    'gate.session.createStatus': {
      kind: 'success-status',
      passage: 'Success status code, the full set of flow values and the kyc_package shape: not shown.',
      what: 'the success status of POST /gate_sessions',
      choices: ['201', '200'],
      readBy: ['support/gate/sessions.ts', 'support/gate/rails.ts'],
    },
    'gate.session.cancelStatus': {
      kind: 'success-status',
      passage: 'No body shown. Cancels an open session; 409 if already terminal.',
      what: 'the success status of POST /gate_sessions/{id}/cancel',
      choices: ['200', '202'],
      readBy: ['conformance/gate/sessions.ts', 'conformance/gate/events.ts'],
    },
    'gate.session.flowValues': {
      kind: 'not-shown',
      passage: 'Success status code, the full set of flow values and the kyc_package shape: not shown.',
      what: 'which flow values a session takes: any string, or only the two sides of a ramp (on_ramp is one value; another is 400)',
      choices: ['any-string', 'ramp-sides'],
      readBy: ['conformance/gate/sessions.ts'],
    },
    'gate.session.kycPackage': {
      kind: 'not-shown',
      passage: 'Success status code, the full set of flow values and the kyc_package shape: not shown.',
      what: "the kyc_package's shape: any JSON value, or an object only (another value is 400)",
      choices: ['any-value', 'object-only'],
      readBy: ['conformance/gate/sessions.ts'],
    },
    'gate.session.unsentFlow': {
      kind: 'nullable',
      passage: '| flow | string or null | locked flow |',
      what: "the flow of a session created without one: null, or on_ramp (the spec's one documented value)",
      choices: ['none', 'on_ramp'],
      readBy: ['conformance/gate/sessions.ts', 'conformance/gate/embed.ts', 'relation:GATE_SESSION_RELATIONS'],
      note: 'the choice is the value of the reference.unsentFlow knob (a world effect sets it)',
    },
    'gate.session.createdAt': {
      kind: 'nullable',
      passage: '| created_at | string or null | ISO 8601 |',
      what: "whether a session's created_at is stamped or null (string or null)",
      choices: ['stamped', 'null'],
      readBy: ['support/gate/sessions.ts', 'support/targetTime.ts'],
    },
    'gate.session.clientSecret': {
      kind: 'spelling',
      passage: '`client_secret` (prefix `gsec_`) appears only in the creation response',
      what: 'the characters after gsec_ in a client_secret',
      choices: ['alnum-24', 'hex-48'],
      readBy: ['conformance/gate/embed.ts', 'support/gate/sessions.ts'],
    },
    'gate.session.lifetime': {
      kind: 'value',
      passage: 'Default session lifetime: not shown.',
      what: "a session's default lifetime (the world's profile then declares timing.sessionLifetimeSeconds)",
      choices: ['1800', '60'],
      readBy: ['src/needs/gate/expireSession.ts', 'support/gate/sessions.ts', 'src/explore/sides.ts'],
    },
    'gate.session.listFilters': {
      kind: 'not-shown',
      passage: 'Other filters: not shown.',
      what: 'what GET /gate_sessions does with a query parameter it does not know: ignores it, or refuses it (400)',
      choices: ['unknown-ignored', 'unknown-refused'],
      readBy: ['support/gate/lists.ts', 'conformance/gate/sessions.ts'],
    },
    'gate.session.expiryNoticed': {
      kind: 'when',
      passage: 'event gate_session.expired on first read past expiry',
      what: 'which reads notice an expiry: the embed bootstrap only, or the session list too ("first read"; retrieve never changes status)',
      choices: ['bootstrap-only', 'list-too'],
      readBy: ['conformance/gate/sessions.ts', 'conformance/gate/sessionEvents.ts', 'relation:GATE_SESSION_RELATIONS'],
    },
    'gate.session.lateCompletion': {
      kind: 'when',
      passage: 'Other session transitions: not shown.',
      what: 'whether a linked buy that succeeds after expires_at (the session still open) completes the session or expires it',
      choices: ['completes', 'expires'],
      readBy: ['conformance/gate/sessions.ts', 'src/explore/commands/gate/sessions.ts'],
    },
    'gate.session.failedStatus': {
      kind: 'not-shown',
      passage: 'No session status value is shown for either.',
      what: 'the status a session takes when its linked buy or sell fails: it stays open, or it ends cancelled (processing has no other status than open)',
      choices: ['stays-open', 'cancelled'],
      readBy: ['conformance/gate/sessionEvents.ts'],
    },
  },
});

export default area;

declare module '../define.js' {
  interface OpenPointAreas {
    'gate/sessions': typeof area.entries;
  }
}
