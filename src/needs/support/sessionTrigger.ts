// The session triggers (complete, process, fail, require KYC) share one shape: a profile
// template run as the session's owner with {{sessionId}}.
import type { Profile, RequestTemplate } from '../../profile/schema.js';
import type { GateActor, NeedEnv, TriggerResult } from '../define.js';
import { runTrigger } from './triggers.js';

export type SessionTrigger = (sessionId: string, owner: GateActor) => Promise<TriggerResult>;

type Name = 'completeSession' | 'processSession' | 'failSession' | 'requireKyc';

export function sessionTriggerMissing(profile: Profile, name: Name, what: string): string | null {
  return profile.gate.triggers[name] ? null : `gate.triggers.${name} is missing (a sandbox control that ${what}; {{sessionId}} is filled in)`;
}

export function sessionTrigger(env: NeedEnv, name: Name): SessionTrigger {
  const tpl = env.profile.gate.triggers[name] as RequestTemplate;
  return (sessionId, owner) => runTrigger(env, 'gate', name, tpl, owner, { sessionId, partner: owner.partner.name });
}
