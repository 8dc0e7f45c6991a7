// A client on the gate production base URL, with no credential of its own (checks choose the key).
import type { ApiClient } from '../../client/types.js';
import { defineNeed } from '../define.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateProduction: ApiClient;
  }
}

export default defineNeed({
  name: 'gateProduction',
  description: 'the Gate production base URL (a test key presented there must be refused)',
  missing: (profile) => (profile.gate.baseUrls.production ? null : 'the profile has no gate.baseUrls.production'),
  setup: (env) => env.client('gate', env.profile.gate.baseUrls.production!, 'production'),
});
