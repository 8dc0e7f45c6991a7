// What the Gate world does to every route's answer where the specs leave it open: the success status of the writes
// whose status is not shown (gate.*.createStatus and the like), and fields beyond those a response shows (the change
// policy is not shown: gate.versioning.changePolicy). Applied around each route as it is registered (index.ts).
import type { OpenPointId } from '../../model/openPoints/index.js';
import type { Profile } from '../../profile/schema.js';
import { chosen } from '../../model/openPoints/index.js';
import { choiceOf } from '../kit/dialect.js';
import type { Handler, Reply } from '../kit/http.js';

/** Routes whose success status is an open point: the point, the reference's status, and the status each choice answers. */
const SUCCESS_STATUS: Record<string, { point: OpenPointId; own: number; status: Record<string, number> }> = {
  'POST /gate_sessions': { point: 'gate.session.createStatus', own: 201, status: { '201': 201, '200': 200 } },
  'POST /gate_sessions/:id/cancel': { point: 'gate.session.cancelStatus', own: 200, status: { '200': 200, '202': 202 } },
  'POST /customers': { point: 'gate.customer.createStatus', own: 201, status: { '201': 201, '200': 200 } },
  'POST /quotes': { point: 'gate.signedQuote.lockStatus', own: 201, status: { '201': 201, '200': 200 } },
  'POST /rails/pay_ins': { point: 'gate.payIn.createStatus', own: 201, status: { '201': 201, '200': 200 } },
  'POST /webhooks/test': { point: 'gate.deliveries.testStatus', own: 201, status: { '201': 201, '200': 200 } },
  'POST /embed/bootstrap': { point: 'gate.embed.bootstrapStatus', own: 200, status: { '200': 200, '201': 201 } },
  'POST /webhooks/deliveries/:id/replay': { point: 'gate.deliveries.replayResponse', own: 200, status: { '200-delivery': 200, '202-delivery': 202 } },
};

/**
 * Fields a response may carry beyond those the spec shows (additive changes): the version it answers in and the
 * environment — names no resource documents, so no documented field is ever supplied by them.
 */
function withAdditive(body: unknown, live: boolean): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const o = body as Record<string, unknown>;
  if (typeof o.object !== 'string') return body;
  const out: Record<string, unknown> = { ...o, api_version: '2026-05-25', environment: live ? 'production' : 'sandbox' };
  if (Array.isArray(o.data)) out.data = o.data.map((x) => withAdditive(x, live));
  return out;
}

/** The route's handler with the world's readings of its answer applied. */
export function readingsAround(profile: Profile, method: string, pattern: string, handler: Handler): Handler {
  const key = `${method} /${pattern.split('/').filter(Boolean).join('/')}`;
  const row = SUCCESS_STATUS[key];
  const status = row ? row.status[chosen(profile.reference?.dialect, row.point)] : undefined;
  const additive = choiceOf(profile, 'gate.versioning.changePolicy') === 'additive-fields';
  if (!row && !additive) return handler;
  return async (req) => {
    const reply: Reply = await handler(req);
    const out = row && status !== undefined && reply.status === row.own ? { ...reply, status } : reply;
    return additive ? { ...out, body: withAdditive(out.body, req.env === 'live') } : out;
  };
}
