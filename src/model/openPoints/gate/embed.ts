// Open points of the Gate spec's embed: the bootstrap's answer and the refresh (Endpoints > Embed; Resources and
// their fields > Other resources).
import { defineOpenPoints } from '../define.js';

const area = defineOpenPoints({
  spec: 'gate',
  section: 'Endpoints > Embed',
  entries: {
    'gate.embed.fieldNames': {
      kind: 'not-shown',
      passage: 'Embed bootstrap response field names: not shown.',
      what: "how the bootstrap's fields are named (the embed token, its expiry, partner id, mode, session id, amount/currency, target token/network, return URL, flow): snake_case or camelCase",
      choices: ['snake', 'camel'],
      readBy: ['conformance/gate/embed.ts', 'src/needs/gate/embed.ts'],
    },
    'gate.embed.bootstrapStatus': {
      kind: 'success-status',
      passage: 'Response: embed token and session context.',
      what: 'the success status of POST /embed/bootstrap',
      choices: ['200', '201'],
      readBy: ['conformance/gate/embed.ts'],
    },
    'gate.embed.refresh': {
      kind: 'not-shown',
      passage: 'Rotates the embed token while the bound session is open. Request and response: not shown.',
      what: "what POST /embed/refresh answers: the bootstrap's whole shape with a new token, or the new token and its expiry alone",
      choices: ['bootstrap-shape', 'token-only'],
      readBy: ['conformance/gate/embed.ts'],
    },
  },
});

export default area;

declare module '../define.js' {
  interface OpenPointAreas {
    'gate/embed': typeof area.entries;
  }
}
