// The sandbox trigger that makes a linked buy or sell of the session fail.
import { defineNeed } from '../define.js';
import { sessionTrigger, sessionTriggerMissing, type SessionTrigger } from '../support/sessionTrigger.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateFailSession: SessionTrigger;
  }
}

export default defineNeed({
  name: 'gateFailSession',
  description: 'a sandbox trigger that makes a linked buy or sell of the session fail',
  missing: (profile) => sessionTriggerMissing(profile, 'failSession', 'makes a linked buy or sell of the session fail'),
  setup: (env) => sessionTrigger(env, 'failSession'),
});
