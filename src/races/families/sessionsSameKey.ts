// Sessions: one Idempotency-Key and body, three creates at once. A serial order makes one session and replays it
// twice (the same id, the same client_secret); a create that checks the key and records it only after making the
// session (a check-then-act gap) makes three. After the burst the same create once more must replay the original.
import { stable } from '../../model/relations.js';
import { GATE_SESSION_RELATIONS } from '../../model/schemas/gate/sessions.js';
import { defineFamily, familyFile, type AnswerRule, type RaceObjects } from '../family.js';
import { sessionBody } from './gateSteps.js';

const REPLAY: AnswerRule = {
  outcome: { requirement: { '2xx': 'GATE-SESS-IDEMPOTENT-REPLAY', 409: 'GATE-SESS-IDEMPOTENT-REPLAY' } },
  relations: { ...GATE_SESSION_RELATIONS, fields: { ...GATE_SESSION_RELATIONS.fields, client_secret: stable('GATE-SESS-IDEMPOTENT-REPLAY') } },
  requirementOf: { id: 'GATE-SESS-IDEMPOTENT-REPLAY' },
};

const create = (body: Record<string, unknown>, key: string) => ({ method: 'POST' as const, path: '/gate_sessions', body, idempotencyKey: key });

export default defineFamily<RaceObjects & { body: Record<string, unknown> }>({
  id: 'sessions-same-key',
  file: familyFile(import.meta.url),
  name: 'races, sessions: one Idempotency-Key and body sent three times at once makes one session, each answer the original',
  service: 'gate',
  requirements: ['GATE-SESS-IDEMPOTENT-REPLAY'],
  partner: { gate: 'gatePartner' },
  cost: { write10: 4 },
  async setup(side, round) {
    return { refs: {}, body: sessionBody(side.profile, round) };
  },
  burst(o, round) {
    return [1, 2, 3].map((n) => ({ service: 'gate' as const, label: `POST /gate_sessions (the one key, send ${n})`, request: create(o.body, round.keys[0]!) }));
  },
  rule: () => REPLAY,
  async after(side, o, round) {
    const exchange = await side.send('the same create once more, after the burst', 'gate', create(o.body, round.keys[0]!));
    return [{ label: 'the same create once more', exchange, rule: REPLAY }];
  },
});
