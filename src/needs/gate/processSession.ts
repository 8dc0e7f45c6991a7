// The sandbox trigger that puts a linked buy or sell of the session into processing.
import { defineNeed } from '../define.js';
import { sessionTrigger, sessionTriggerMissing, type SessionTrigger } from '../support/sessionTrigger.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateProcessSession: SessionTrigger;
  }
}

export default defineNeed({
  name: 'gateProcessSession',
  description: 'a sandbox trigger that puts a linked buy or sell of the session into processing',
  missing: (profile) => sessionTriggerMissing(profile, 'processSession', 'puts a linked buy or sell of the session into processing'),
  setup: (env) => sessionTrigger(env, 'processSession'),
});
