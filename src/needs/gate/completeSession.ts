// The sandbox trigger that makes a linked buy or sell of the session succeed.
import { defineNeed } from '../define.js';
import { sessionTrigger, sessionTriggerMissing, type SessionTrigger } from '../support/sessionTrigger.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateCompleteSession: SessionTrigger;
  }
}

export default defineNeed({
  name: 'gateCompleteSession',
  description: 'a sandbox trigger that makes a linked buy or sell of the session succeed',
  missing: (profile) => sessionTriggerMissing(profile, 'completeSession', 'makes a linked buy or sell of the session succeed'),
  setup: (env) => sessionTrigger(env, 'completeSession'),
});
