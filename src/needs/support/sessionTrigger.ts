// The session triggers (complete, process, fail, require KYC) share one shape: a profile
// template run as the session's owner with {{sessionId}}.
import type { Profile, RequestTemplate } from '../../profile/schema.js';
import type { GateActor, NeedEnv, TriggerResult } from '../define.js';
import { armedOrUnverified, runTrigger, sendTemplate } from './triggers.js';

/**
 * Run the trigger on a session, requiring its documented success; `send` sends it and returns whatever it answered
 * (a check that applies it where the control may refuse — a terminal session — judges the session, not the answer).
 */
export type SessionTrigger = ((sessionId: string, owner: GateActor) => Promise<TriggerResult>) & {
  send: (sessionId: string, owner: GateActor) => Promise<TriggerResult>;
};

type Name = 'completeSession' | 'processSession' | 'failSession' | 'requireKyc';

export function sessionTriggerMissing(profile: Profile, name: Name, what: string): string | null {
  return profile.gate.triggers[name] ? null : `gate.triggers.${name} is missing (a sandbox control that ${what}; {{sessionId}} is filled in)`;
}

export function sessionTrigger(env: NeedEnv, name: Name): SessionTrigger {
  const tpl = env.profile.gate.triggers[name] as RequestTemplate;
  const vars = (sessionId: string, owner: GateActor) => ({ sessionId, partner: owner.partner.name });
  return Object.assign((sessionId: string, owner: GateActor) => runTrigger(env, 'gate', name, tpl, owner, vars(sessionId, owner)), {
    send: (sessionId: string, owner: GateActor) => armedOrUnverified('gate', name, () => sendTemplate(env, 'gate', owner, tpl, vars(sessionId, owner))),
  });
}
