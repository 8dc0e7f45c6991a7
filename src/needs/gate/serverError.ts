// A sandbox control that makes the target answer a 5xx through its normal
// error path: the spec offers no request that must fail on the server, so the
// 5xx-scrubbing rule can only be judged on a target that can be told to fail.
// Sent once, never retried (a client retries 5xx), and its answer is the thing
// judged, so a non-5xx answer is not a broken trigger for the check to hide:
// the caller decides (unverified).
import type { Exchange } from '../../client/types.js';
import { defineNeed, type GateActor } from '../define.js';
import { fill, fillDeep } from '../support/triggers.js';

/** Send gate.triggers.serverError as `actor`; resolves with the raw answer (5xx expected). */
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
    const path = fill(tpl.path, vars);
    let client = actor.client;
    let relPath = path;
    if (/^https?:\/\//i.test(path)) {
      const u = new URL(path);
      client = env.client('gate', u.origin, `${actor.partner.name} (trigger)`, actor.partner.secretKey, actor.partner.publishableKey);
      relPath = `${u.pathname}${u.search}`;
    } else if (tpl.base === 'pools') {
      const base = env.profile.pools?.baseUrls.sandbox;
      if (!base) throw new Error('gate.triggers.serverError names base pools, but the profile has no pools section');
      client = env.client('pools', base, `${actor.partner.name} (trigger)`, actor.partner.secretKey, actor.partner.publishableKey);
    }
    return client.request({
      method: tpl.method,
      path: relPath,
      body: tpl.body === undefined ? undefined : fillDeep(tpl.body, vars),
      headers: tpl.headers ? (fillDeep(tpl.headers, vars) as Record<string, string>) : undefined,
      auth: tpl.auth === 'none' ? 'none' : 'secret',
      retry: false,
    });
  },
});
