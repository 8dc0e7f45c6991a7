// Sessions: a cancel beside the completion of one open session (the sandbox's completeSession: a linked buy that
// succeeds). In a serial order one of them finds the session open and ends it; the other finds it terminal — a
// cancel of a terminal session is 409, and a succeeded buy leaves a cancelled session cancelled. A completion that
// checks the session open and completes it a round trip later completes a session a cancel ended in between: both
// answered as if each came first, and the session reads completed after its cancel succeeded.
import { GATE_SESSION_RELATIONS } from '../../model/schemas/gate/sessions.js';
import { defineFamily, familyFile, type AnswerRule, type BurstRequest, type RaceObjects } from '../family.js';
import { triggerRequest } from '../triggerRequest.js';
import { makeSession, read, sessionPath } from './gateSteps.js';

type Objects = RaceObjects & { id: string; completion: BurstRequest };

const RULES: AnswerRule[] = [
  { outcome: { requirement: { '2xx': 'GATE-SESS-CANCEL', 409: 'GATE-SESS-CANCEL-TERMINAL-409' } } },
  // The completion control's own answer is the sandbox's (not the API's): only what it did is judged, by the read after.
  { uncompared: true, outcome: { requirement: {} } },
];

export default defineFamily<Objects>({
  id: 'session-cancel-beside-completion',
  file: familyFile(import.meta.url),
  name: 'races, sessions: a cancel beside the completion of one open session ends it once — the other finds it terminal',
  service: 'gate',
  requirements: ['GATE-SESS-TERMINAL-STAYS', 'GATE-SESS-CANCEL-TERMINAL-409'],
  partner: { gate: 'gatePartner' },
  needs: ['gateCompleteSession'],
  // The race shows only when the completion reaches the session first: three times the bursts.
  repeat: 3,
  cost: { write10: 1, write30: 1, default: 1, read60: 1 },
  async setup(side, round) {
    const id = await makeSession(side, round);
    return {
      refs: { session: id },
      id,
      completion: triggerRequest(side, 'gate', 'completeSession', { sessionId: id }, 'the linked buy succeeds (completeSession)'),
    };
  },
  burst(o) {
    return [{ service: 'gate', label: 'POST /gate_sessions/{id}/cancel', request: { method: 'POST', path: sessionPath(o.id, '/cancel') } }, o.completion];
  },
  rule: (i) => RULES[i]!,
  async after(side, o) {
    const exchange = await read(side, 'read the session after the burst', sessionPath(o.id));
    return [
      {
        label: 'the session read after the burst',
        exchange,
        rule: {
          outcome: { requirement: { '2xx': 'GATE-SESS-RETRIEVE' } },
          relations: GATE_SESSION_RELATIONS,
          requirementOf: { status: 'GATE-SESS-TERMINAL-STAYS' },
        },
      },
    ];
  },
});
