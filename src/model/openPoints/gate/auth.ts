// Open points of the Gate spec's authentication: the keys' alphabet, the account assertion's transport and the
// alternative secret-key header (Authentication).
import { defineOpenPoints } from '../define.js';

const area = defineOpenPoints({
  spec: 'gate',
  section: 'Authentication',
  entries: {
    'gate.keys.alphabet': {
      kind: 'spelling',
      passage: 'sk_<test|live>_<32 chars>',
      what: 'the alphabet of the 32 characters of the keys the target issues itself (live keys): letters and digits, or lowercase hex',
      choices: ['alnum', 'hex'],
      readBy: ['src/profile/schema.ts', 'src/secrets/shapes.ts', 'src/needs/gate/liveKey.ts'],
      note: 'the choice is the value of the reference.keyAlphabet knob (a world effect sets it)',
    },
    'gate.auth.accountAssertion': {
      kind: 'not-shown',
      passage: 'Header or transport used by the account assertion: not shown.',
      what: 'where an account assertion rides: the Authorization bearer, or a header of its own (X-Account-Assertion); the sandbox trusts no issuer, so an assertion is refused 401 either way',
      choices: ['bearer', 'x-account-assertion'],
      readBy: [],
      note: 'nothing in rampart sends an assertion: secret keys may call the same dashboard endpoints (rule 5), and rampart calls them so',
    },
    'gate.auth.altSecretHeader': {
      kind: 'not-shown',
      passage: 'An alternative canonical secret-key header exists where the server supports it; its name: not shown.',
      what: 'whether the target takes a secret key in another header than the bearer (X-Api-Key), and its name',
      choices: ['none', 'x-api-key'],
      readBy: [],
      note: 'rampart sends secret keys in the documented form only (bearer): no check depends on the other header',
    },
  },
});

export default area;

declare module '../define.js' {
  interface OpenPointAreas {
    'gate/auth': typeof area.entries;
  }
}
