// Open points of the Gate spec's webhook operations: the deliveries list, replay and the test event (Endpoints >
// Webhook operations; States and transitions > Webhook delivery).
import { defineOpenPoints } from '../define.js';

const area = defineOpenPoints({
  spec: 'gate',
  section: 'Endpoints > Webhook operations',
  entries: {
    'gate.deliveries.retryStatus': {
      kind: 'not-shown',
      passage: 'Status held while a retry is waiting: not shown.',
      what: 'the status a delivery reads while its retry waits: pending, or in_flight',
      choices: ['pending', 'in_flight'],
      readBy: ['support/gate/deliveries.ts', 'chaos/gate/networkFaults.ts', 'conformance/gate/webhookOperations.ts', 'relation:WEBHOOK_DELIVERY_RELATIONS'],
    },
    'gate.deliveries.listOrder': {
      kind: 'list-order',
      passage: 'most recent first',
      what: 'what "most recent first" orders the deliveries by: creation, or the latest change (an attempt, a replay)',
      choices: ['created', 'updated'],
      readBy: ['support/gate/deliveryOrder.ts', 'conformance/gate/webhookOperations.ts'],
      note: 'the choice is the value of the reference.deliveryListOrder knob (a world effect sets it)',
    },
    'gate.deliveries.replayResponse': {
      kind: 'not-shown',
      passage: 'Response and the error for a delivery that is not dead-lettered: not shown.',
      what: 'what a replay answers: 200 with the requeued delivery, or 202 with it',
      choices: ['200-delivery', '202-delivery'],
      readBy: ['chaos/gate/deadLetterReplay.ts'],
    },
    'gate.deliveries.replayRefused': {
      kind: 'not-shown',
      passage: 'Response and the error for a delivery that is not dead-lettered: not shown.',
      what: 'the error for a replay of a delivery that is not dead-lettered: 409 conflict, or 400 invalid_request',
      choices: ['409', '400'],
      readBy: ['conformance/gate/webhookOperations.ts'],
    },
    'gate.deliveries.testStatus': {
      kind: 'success-status',
      passage: 'Enqueues one synthetic `webhook.test` event',
      what: 'the success status of POST /webhooks/test',
      choices: ['201', '200'],
      readBy: ['support/gate/deliveries.ts', 'conformance/gate/webhookOperations.ts', 'conformance/gate/dashboard.ts'],
    },
  },
});

export default area;

declare module '../define.js' {
  interface OpenPointAreas {
    'gate/webhookOperations': typeof area.entries;
  }
}
