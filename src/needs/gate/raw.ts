// A client on the gate sandbox base URL with no credential of its own: checks send
// deliberately missing, malformed, revoked or foreign credentials with it.
import type { ApiClient } from '../../client/types.js';
import { defineNeed } from '../define.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateRaw: ApiClient;
  }
}

export default defineNeed({
  name: 'gateRaw',
  description: 'a client on the Gate sandbox base URL without a credential',
  missing: () => null,
  setup: (env) => env.client('gate', env.profile.gate.baseUrls.sandbox, 'raw'),
});
