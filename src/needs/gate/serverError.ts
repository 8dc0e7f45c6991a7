// A sandbox control that makes the target answer a 5xx through its normal
// error path: the spec offers no request that must fail on the server, so the
// 5xx-scrubbing rule can only be judged on a target that can be told to fail.
// A control that arms the partner's next request instead is declared with
// `arm`: the template's own request is then the one that fails. Sent once,
// never retried (a client retries 5xx), and its answer is the thing judged, so
// a non-5xx answer is not a broken trigger for the check to hide: the caller
// decides (unverified).
import type { Exchange } from '../../client/types.js';
import { defineNeed, type GateActor } from '../define.js';
import { armedOrUnverified, sendTemplate } from '../support/triggers.js';

/** Send gate.triggers.serverError as `actor` (its arming requests first); resolves with the raw answer (5xx expected). */
export type ProvokeServerError = (actor: GateActor) => Promise<Exchange>;

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateServerError: ProvokeServerError;
  }
}

export default defineNeed({
  name: 'gateServerError',
  description: 'a sandbox control that makes the target answer a 5xx (gate.triggers.serverError)',
  missing: (profile) =>
    profile.gate.triggers.serverError
      ? null
      : 'gate.triggers.serverError is missing (a sandbox control that makes the target answer a 5xx through its normal error path; no documented request must fail on the server)',
  setup: (env) => async (actor) => {
    const tpl = env.profile.gate.triggers.serverError!;
    const vars = { partner: actor.partner.name };
    const { exchange } = await armedOrUnverified('gate', 'serverError', () => sendTemplate(env, 'gate', actor, tpl, vars, { retry: false }));
    return exchange;
  },
});
